"""Diagnostics over LSP: push or pull by client, exact content, versions."""

from __future__ import annotations

import asyncio

import pytest

from lsp_harness import rng
from lsprotocol import types

UNKNOWN = (
    "#!/bin/sh\n"
    "vllm serve facebook/opt-125m \\\n"
    "  --max-modl-len 8192 \\\n"
    "  --port 8000\n"
)
UNKNOWN_MESSAGE = "unknown flag --max-modl-len for vLLM 0.33.0; did you mean --max-model-len?"
DOCS = "https://github.com/servelint/servelint/blob/main/docs/rules.md#"


async def test_push_or_pull_by_client_capability(session):
    result = await session.initialize()
    uri = session.open("run.sh", UNKNOWN)
    if session.pull:
        # Neovim 0.11 pulls: the server advertises pull diagnostics and never pushes.
        assert result.capabilities.diagnostic_provider is not None
        assert result.capabilities.diagnostic_provider.inter_file_dependencies is True
        assert result.capabilities.diagnostic_provider.workspace_diagnostics is True
        report = await session.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        assert report.kind == "full" and report.result_id
        items = report.items
        again = await session.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri),
                                           previous_result_id=report.result_id)
        )
        assert again.kind == "unchanged" and again.result_id == report.result_id
        await asyncio.sleep(0.3)
        assert session.published == []
    else:
        # VS Code 1.65 predates pull diagnostics: pushed, with the document version.
        assert result.capabilities.diagnostic_provider is None
        published = await session.pushed(uri)
        assert published.version == 1
        items = published.diagnostics
    assert len(items) == 1
    d = items[0]
    assert d.range == rng(UNKNOWN, "--max-modl-len")
    assert d.code == "SL101"
    assert d.severity == types.DiagnosticSeverity.Error
    assert d.source == "servelint"
    assert d.message == UNKNOWN_MESSAGE
    assert d.code_description.href == DOCS + "unknown-flag"
    assert d.data["name"] == "unknown-flag"
    assert d.data["version"] == 1
    assert [f["title"] for f in d.data["fixes"]] == ["Replace with --max-model-len"]


async def test_related_information_and_tags(session):
    await session.initialize()
    text = "#!/bin/sh\nvllm serve facebook/opt-125m --port 8000 --disable-cascade-attn --port 8000\n"
    uri = session.open("dup.sh", text)
    diags = await session.diagnostics(uri)
    assert [(d.code, d.range) for d in diags] == [
        ("SL105", rng(text, "--disable-cascade-attn")),
        ("SL104", rng(text, "--port", occurrence=1)),
    ]
    deprecated, duplicate = diags
    assert list(deprecated.tags) == [types.DiagnosticTag.Deprecated]
    assert deprecated.severity == types.DiagnosticSeverity.Warning
    assert list(duplicate.tags) == [types.DiagnosticTag.Unnecessary]
    assert duplicate.severity == types.DiagnosticSeverity.Information
    assert duplicate.message == "--port is given again with the same value (earlier: --port 8000)"
    [related] = duplicate.related_information
    assert related.location.uri == uri
    assert related.location.range == rng(text, "--port")
    assert related.message == "--port first given here"


async def test_positions_follow_the_negotiated_encoding(session):
    result = await session.initialize()
    # Neovim 0.11 offers UTF-8 first, VS Code only knows UTF-16.
    expected = "utf-8" if session.profile == "neovim" else "utf-16"
    assert result.capabilities.position_encoding == expected
    prefix = "vllm serve facebook/opt-125m --served-model-name 'm€del-🙂' "
    text = f"#!/bin/sh\n{prefix}--max-modl-len 1\n"
    uri = session.open("enc.sh", text)
    [d] = await session.diagnostics(uri)
    units = len(prefix.encode("utf-8")) if expected == "utf-8" else len(prefix.encode("utf-16-le")) // 2
    assert (d.range.start.line, d.range.start.character) == (1, units)
    assert d.range.end.character == units + len("--max-modl-len")


async def test_files_without_a_launch_stay_silent(session):
    await session.initialize()
    shell = session.open("other.sh", "#!/bin/sh\necho --max-modl-len\n")
    yaml = session.open("values.yaml", "replicas: 2\nimage: nginx\n", "yaml")
    text = session.open("notes.txt", "vllm serve --max-modl-len\n", "plaintext")
    for uri in (shell, yaml, text):
        assert await session.diagnostics(uri) == []


async def test_close_clears_pushed_diagnostics(session):
    await session.initialize()
    uri = session.open("run.sh", UNKNOWN)
    assert len(await session.diagnostics(uri)) == 1
    mark = len(session.published)
    session.client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    if session.pull:
        # Nothing is pushed to a pulling client; a pull of the closed
        # document finds nothing.
        report = await session.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        assert list(report.items) == [] and session.published[mark:] == []
        return
    cleared = await session.pushed(uri, None, after=mark)
    assert list(cleared.diagnostics) == []


def _script(n: int) -> str:
    # Version n has n comment lines above the launch, so the diagnostic's
    # line tells which version it was computed for.
    return "#!/bin/sh\n" + "# padding\n" * n + "vllm serve facebook/opt-125m --max-modl-len 8192\n"


async def test_rapid_edits_end_with_the_final_diagnostics(session):
    await session.initialize()
    uri = session.open("rapid.sh", _script(0))
    await session.diagnostics(uri)
    for n in range(1, 16):
        session.change(uri, _script(n))
        await asyncio.sleep(0.005 * (n % 4))
    final = session.versions[uri]
    diags = await session.diagnostics(uri)
    assert [(d.code, d.range.start.line) for d in diags] == [("SL101", 1 + 15)]
    if not session.pull:
        await asyncio.sleep(0.3)
        mine = [p for p in session.published if p.uri == uri]
        versions = [p.version for p in mine]
        assert versions == sorted(versions) and versions[-1] == final
        # Every publish describes the text of the version it names.
        for p in mine:
            assert [d.range.start.line for d in p.diagnostics] == [1 + (p.version - 1)]
        # A burst (edits that arrive together) is one lint, of its last version.
        before = len(session.published)
        for n in range(16, 31):
            session.change(uri, _script(n))
        diags = await session.diagnostics(uri, after=before)
        assert [(d.code, d.range.start.line) for d in diags] == [("SL101", 1 + 30)]
        await asyncio.sleep(0.3)
        burst = [p.version for p in session.published[before:] if p.uri == uri]
        assert burst[-1] == session.versions[uri] and len(burst) <= 3, burst


async def test_diagnostics_for_a_superseded_version_are_never_published(session):
    """A lint that finishes after the document moved on is dropped."""
    await session.initialize()
    # Distinct launches (a repeated one is checked once), enough that the
    # lint of v2 takes far longer than v3 takes to arrive.
    big = "#!/bin/sh\n" + "".join(
        f"vllm serve facebook/opt-125m --port {8000 + i} --max-modl-len {i}\n" for i in range(1200)
    )
    uri = session.open("big.sh", big)
    await session.diagnostics(uri)
    # A release directive: every launch is read again under another
    # release, which takes far longer than the next message takes to arrive.
    session.change(uri, big.replace("#!/bin/sh\n", "#!/bin/sh  # servelint: vllm=0.28.0\n", 1))
    # The hover makes the server lint v2 now; v3 arrives while it runs.
    hover = asyncio.ensure_future(session.hover(uri, 1, 32))
    await asyncio.sleep(0)
    session.change(uri, "#!/bin/sh\nvllm serve facebook/opt-125m --max-modl-len 1\n")
    await hover
    diags = await session.diagnostics(uri)
    assert [(d.code, d.range.start.line) for d in diags] == [("SL101", 1)]
    await asyncio.sleep(0.3)
    assert [p.version for p in session.published if p.uri == uri and p.version == 2] == []
    dropped = [m.message for m in session.client.log_messages if "dropped the lint" in m.message]
    assert dropped == [f"servelint: dropped the lint of {uri} v2: the document changed meanwhile"]


async def test_workspace_diagnostics(session):
    await session.initialize()
    if not session.pull:
        pytest.skip("VS Code 1.65 has no pull diagnostics, so none are offered to it")
    a = session.open("a.sh", UNKNOWN)
    b = session.open("b.sh", "#!/bin/sh\nvllm serve facebook/opt-125m --port 8000\n")
    report = await session.client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[]))
    by_uri = {r.uri: r for r in report.items}
    assert {u: len(r.items) for u, r in by_uri.items()} == {a: 1, b: 0}
    assert by_uri[a].version == 1
    previous = [types.PreviousResultId(uri=u, value=r.result_id) for u, r in by_uri.items()]
    again = await session.client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=previous))
    assert sorted(r.kind for r in again.items) == ["unchanged", "unchanged"]


async def test_workspace_diagnostics_include_files_not_open(session):
    await session.initialize()
    if not session.pull:
        pytest.skip("VS Code 1.65 has no pull diagnostics, so none are offered to it")
    (session.tmp / "closed.sh").write_text(UNKNOWN)
    (session.tmp / "clean.sh").write_text("#!/bin/sh\nvllm serve facebook/opt-125m --port 8000\n")
    (session.tmp / "notes.txt").write_text("vllm serve --max-modl-len\n")
    opened = session.open("open.sh", UNKNOWN)
    report = await session.client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[]))
    by_uri = {r.uri: r for r in report.items}
    closed = session.uri("closed.sh")
    assert sorted(by_uri) == sorted([opened, closed, session.uri("clean.sh")])
    assert by_uri[closed].version is None
    [d] = by_uri[closed].items
    assert (d.code, d.range, d.message) == ("SL101", rng(UNKNOWN, "--max-modl-len"), UNKNOWN_MESSAGE)
    # The first scan reported its progress.
    [reports] = [r for t, r in session.client.progress_reports.items() if str(t).startswith("servelint-scan")]
    assert [type(r).__name__ for r in reports][0] == "WorkDoneProgressBegin"
    assert reports[-1].message == "checked 2 files"

    previous = [types.PreviousResultId(uri=u, value=r.result_id) for u, r in by_uri.items()]
    again = await session.client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=previous))
    assert {r.uri: r.kind for r in again.items} == {u: "unchanged" for u in by_uri}

    (session.tmp / "closed.sh").write_text(UNKNOWN.replace("--max-modl-len", "--max-model-len") + "# edited\n")
    third = await session.client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=previous))
    changed = {r.uri: r for r in third.items if r.kind == "full"}
    assert list(changed) == [closed] and list(changed[closed].items) == []
