"""No lost edits: ``--fix`` never overwrites what it did not read, never
leaves a half-written file, and the server never hands out an edit for a
version of the document the editor no longer has."""

from __future__ import annotations

import asyncio
import os
import stat
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from servelint import cli
from servelint.engine import Engine

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))
from lsp_harness import CONFIG, Session, apply_edits, edits_for, position_of  # noqa: E402

# --port 1 is overridden by --port 2: removing it is a safe fix.
BEFORE = "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --port 1 --max-model-len 4096 --port 2\n"
AFTER = "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-model-len 4096 --port 2\n"


def _fix(path: Path, capsys) -> tuple[int, str]:
    status = cli.main(["check", "--no-config", "--vllm-version", "0.33.0", "--fix", str(path)])
    return status, capsys.readouterr().out


def test_fix_applies_safe_fixes(tmp_path, capsys):
    p = tmp_path / "run.sh"
    p.write_text(BEFORE)
    p.chmod(0o750)
    status, out = _fix(p, capsys)
    assert p.read_text() == AFTER
    assert stat.S_IMODE(p.stat().st_mode) == 0o750
    assert "Fixed 1 problem." in out and status == 0
    assert sorted(os.listdir(tmp_path)) == ["run.sh"]  # no temporary file left


def test_fix_refuses_a_file_changed_since_it_was_read(tmp_path, capsys, monkeypatch):
    """The user saves in the editor while --fix runs: their text wins."""
    p = tmp_path / "run.sh"
    p.write_text(BEFORE)
    theirs = BEFORE + "echo saved by the editor meanwhile\n"
    lint = Engine.lint

    def lint_then_save(self, path, text, *args, **kwargs):
        result = lint(self, path, text, *args, **kwargs)
        Path(path).write_text(theirs)
        return result

    monkeypatch.setattr(Engine, "lint", lint_then_save)
    status, out = _fix(p, capsys)
    assert p.read_text() == theirs
    assert f"servelint: {p}: changed since it was read (or not UTF-8); not fixed" in out
    assert "Fixed" not in out and status == 2


def test_a_failed_write_leaves_the_file_as_it_was(tmp_path, capsys, monkeypatch):
    """Disk full or a crash before the rename: the original is intact, no
    temporary file is left, and the user is told."""
    p = tmp_path / "run.sh"
    p.write_text(BEFORE)
    from servelint.fixes import apply

    def no_space(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(apply.os, "replace", no_space)
    status, out = _fix(p, capsys)
    assert p.read_text() == BEFORE
    assert sorted(os.listdir(tmp_path)) == ["run.sh"]
    assert f"servelint: {p}: could not write the fixes (No space left on device); not fixed" in out
    assert status == 2


def test_a_symlinked_file_is_fixed_and_stays_a_link(tmp_path, capsys):
    target = tmp_path / "real.sh"
    target.write_text(BEFORE)
    link = tmp_path / "link.sh"
    link.symlink_to(target)
    status, out = _fix(link, capsys)
    assert link.is_symlink() and target.read_text() == AFTER


def test_a_read_only_directory_is_reported_not_crashed_on(tmp_path, capsys):
    if os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    d = tmp_path / "ro"
    d.mkdir()
    p = d / "run.sh"
    p.write_text(BEFORE)
    d.chmod(0o500)
    try:
        status, out = _fix(p, capsys)
    finally:
        d.chmod(0o700)
    assert p.read_text() == BEFORE and "could not write the fixes" in out and status == 2


# -- the server --------------------------------------------------------------------

def _caps(document_changes: bool) -> types.ClientCapabilities:
    caps = client_capabilities("visual-studio-code")
    caps.workspace.workspace_edit.document_changes = document_changes
    return caps


@pytest_lsp.fixture(config=CONFIG, params=[True, False], ids=["versioned-edits", "plain-edits"])
async def edit_client(lsp_client: LanguageClient, request):
    lsp_client.published = []
    lsp_client.document_changes = request.param
    lsp_client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = lsp_client.published.append
    lsp_client.protocol.fm.features[types.CLIENT_REGISTER_CAPABILITY] = lambda params: None
    yield
    await stop(lsp_client)


async def test_no_edit_for_a_version_the_editor_no_longer_has(edit_client, tmp_path):
    """Quick fixes asked for with the diagnostics of an old version (the
    editor has not received the new ones yet): a client that checks versions
    gets the old version in the edit and refuses it; a client that cannot
    check gets no edit at all.  Either way the file is never damaged."""
    session = Session(edit_client, "visual-studio-code", tmp_path)
    session.caps = _caps(edit_client.document_changes)
    await session.initialize()
    text = "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-modl-len 4096\n"
    uri = session.open("run.sh", text)
    old = await session.diagnostics(uri)
    assert [d.code for d in old] == ["SL101"]
    # The user inserts a line above: every range of v1 is now a line off.
    after = len(session.published)
    session.change(uri, "#!/bin/sh\nexport X=1\nvllm serve Qwen/Qwen3-8B --max-modl-len 4096\n")
    await session.diagnostics(uri, after=after)
    actions = await session.code_actions(uri, old[0].range, old)
    edits = [a for a in actions if a.edit is not None]
    if edit_client.document_changes:
        assert [a.title for a in edits][:1] == ["Replace with --max-model-len"]
        for action in edits:
            version, _ = edits_for(action.edit, uri)
            assert version == 1, action.title  # the client compares it with v2 and refuses
    else:
        assert edits == [], [a.title for a in edits]  # an unversioned edit for v1 would land a line off
    # The diagnostics of the current version get their fixes.
    current = await session.diagnostics(uri, after=after)
    fresh = [a for a in await session.code_actions(uri, current[0].range, current) if a.edit is not None]
    version, text_edits = edits_for(fresh[0].edit, uri)
    assert fresh[0].title == "Replace with --max-model-len" and version in (2, None)
    assert "--max-model-len 4096" in apply_edits(session.texts[uri], text_edits)
    # Fix-all is computed on the current text, at the current version.
    fix_all = await session.code_actions(uri, old[0].range, [], only=["source.fixAll.servelint"])
    for action in fix_all:
        version, text_edits = edits_for(action.edit, uri)
        assert version in (None, 2) if not edit_client.document_changes else version == 2
        assert apply_edits(session.texts[uri], text_edits).count("\n") == 3


async def stop(lsp_client: LanguageClient) -> None:
    if lsp_client.capabilities is not None and lsp_client.error is None:
        await lsp_client.shutdown_session()
    elif lsp_client._server is not None and lsp_client._server.returncode is None:
        lsp_client._server.kill()
