"""The LSP form the server keeps from one keystroke to the next is what a
fresh look at the same text shows, to the last field.

The server keeps each launch's diagnostics as encoded JSON and moves them
when lines are added or removed above them (``servelint.lsp.forms``).  These
tests type into documents where every launch has findings (with fixes, and
with related places) and compare each answer, ranges, data, fixes and their
edits included, with the same text opened anew at the same version: edits
that move lines above the findings, a character replaced by a line break
(the offsets below stay, the lines do not), multi-byte characters before a
launch on its own line (UTF-16 and UTF-8 columns), and CRLF line ends.
"""

from __future__ import annotations

import random

import pytest
from lsprotocol import converters, types
from servelint.text import SourceText

LAUNCHES = [
    "vllm serve facebook/opt-125m --max-modl-len 8192 --port 8000",
    "vllm serve facebook/opt-125m --port 8001 --port 8002 --dtype bf16",
    'echo "é😀 ready"; vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 95',
    "vllm serve Qwen/Qwen3-8B \\\n  --tensor-paralel-size 2 \\\n  --max-num-seqs 64",
    "CUDA_VISIBLE_DEVICES=0 vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size two",
]


def _script(copies: int, newline: str = "\n") -> str:
    lines = ["#!/bin/bash", "set -e"]
    for i in range(copies):
        lines.append(f"# launch {i}")
        lines.append(LAUNCHES[i % len(LAUNCHES)])
        lines.append("")
    return newline.join(lines) + newline


_CONVERTER = converters.get_converter()


def _as_json(diags: list[types.Diagnostic], uri: str, fresh_uri: str) -> list:
    out = []
    for d in diags:
        obj = _CONVERTER.unstructure(d)
        # The fresh copy is another document: its fixes name its own URI.
        for fx in (obj.get("data") or {}).get("fixes", []):
            for e in fx["edits"]:
                if e["uri"] == fresh_uri:
                    e["uri"] = uri
        for r in obj.get("relatedInformation") or []:
            if r["location"]["uri"] == fresh_uri:
                r["location"]["uri"] = uri
        out.append(obj)
    return out


async def _fresh(session, name: str, text: str, version: int) -> list[types.Diagnostic]:
    """The diagnostics of ``text`` opened anew as ``name`` at ``version``."""
    uri = session.uri(name)
    session.versions[uri] = version
    session.texts[uri] = text
    session.client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="shellscript", version=version, text=text)))
    got = await session.diagnostics(uri)
    session.client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    return got


KINDS = ["line above", "line gone", "type", "backspace", "break", "join", "wide", "wide same line",
         "before on its line"]


def _edit(rng: random.Random, text: str, newline: str, kind: str | None = None) -> tuple[int, int, str]:
    """(offset, characters replaced, new text): one keystroke or paste of
    ``kind`` (random if None) on a random line, or, for a given kind, on
    the first line near the top where it applies."""
    lines = text.split(newline)
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + len(newline))
    if kind is None:
        k = rng.randrange(len(lines) - 1)
        kind = rng.choice(KINDS)
    else:
        wanted = {"line gone": lambda t: t.startswith("#"), "break": lambda t: t.startswith("# launch"),
                  "join": lambda t: t == "", "wide same line": lambda t: t.startswith("vllm serve")}.get(kind)
        k = next((j for j in range(3, len(lines) - 2) if wanted is None or wanted(lines[j])), 3)
    at = starts[k]
    if kind == "before on its line":
        # In the statement before a launch on the same line: the launch is
        # not read again, but its columns move.
        k = next((j for j in range(k, len(lines) - 1) if "ready\"; vllm" in lines[j]), k)
        at = starts[k]
        if "ready\"; vllm" in lines[k]:
            return at + lines[k].index("ready"), 0, rng.choice(["é", "x", "😀"])
    if kind == "line above":
        return at, 0, "# added" + newline
    if kind == "line gone" and lines[k].startswith("#") and k > 2:
        return at, len(lines[k]) + len(newline), ""
    if kind == "type" and lines[k]:
        return at + rng.randrange(len(lines[k]) + 1), 0, rng.choice("ax-9 ")
    if kind == "backspace" and lines[k]:
        return at + rng.randrange(len(lines[k])), 1, ""
    if kind == "break" and lines[k].startswith("# launch"):
        # A character replaced by a line break: no offset below moves.
        return at + 1, 1, newline if newline == "\n" else "\r"
    if kind == "join" and lines[k] == "" and k + 1 < len(lines) - 1:
        return at, len(newline), ""
    if kind == "wide":
        return at, 0, "# é😀 ü" + newline
    if kind == "wide same line" and lines[k].startswith("vllm serve"):
        return at, 0, ": 😀é; "
    return at + len(lines[k]), 0, " "


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
async def test_kept_diagnostics_are_what_a_fresh_look_shows(session, newline):
    await session.initialize()
    text = _script(12, newline)
    uri = session.open("many.sh", text, on_disk=False)
    first = await session.diagnostics(uri)
    assert len(first) >= 12  # every launch has a finding
    assert any(d.related_information for d in first) and any(d.data.get("fixes") for d in first)
    rng = random.Random(2212)
    # Each kind of edit once near the top (every launch below it is kept),
    # then random ones.
    for step, kind in enumerate(KINDS + [None] * 40):
        at, removed, inserted = _edit(rng, session.texts[uri], newline, kind)
        old = session.texts[uri]
        src = SourceText(old, session.encoding)
        (sl, sc), (el, ec) = src.position(at), src.position(at + removed)
        session.edit(uri, [types.TextEdit(
            range=types.Range(start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)),
            new_text=inserted)])
        assert session.texts[uri] == old[:at] + inserted + old[at + removed:]
        kept = await session.diagnostics(uri)
        fresh_name = f"fresh-{step}.sh"
        fresh = await _fresh(session, fresh_name, session.texts[uri], session.versions[uri])
        assert _as_json(kept, uri, session.uri(fresh_name)) == _as_json(fresh, uri, session.uri(fresh_name)), (
            f"step {step}: {(at, removed, inserted)!r}")


async def test_a_quick_fix_of_a_moved_finding_applies_where_it_now_is(session):
    """A finding kept through lines typed above it offers its fix at its
    new place, for the current version; applied, the finding is gone."""
    await session.initialize()
    text = _script(6)
    uri = session.open("fix.sh", text, on_disk=False)
    await session.diagnostics(uri)
    for _ in range(3):
        session.edit(uri, [types.TextEdit(range=types.Range(start=types.Position(line=2, character=0),
                                                             end=types.Position(line=2, character=0)),
                                          new_text="# one more line\n")])
    diags = await session.diagnostics(uri)
    typo = next(d for d in diags if "--max-modl-len" in d.message)
    assert session.texts[uri].splitlines()[typo.range.start.line].startswith("vllm serve facebook/opt-125m --max-modl")
    actions = await session.code_actions(uri, typo.range, [typo])
    fix = next(a for a in actions if a.title == "Replace with --max-model-len")
    from lsp_harness import edits_for

    version, edits = edits_for(fix.edit, uri)
    if version is not None:
        assert version == session.versions[uri]
    session.edit(uri, edits)
    after = await session.diagnostics(uri)
    assert sum("--max-modl-len" in d.message for d in after) == sum("--max-modl-len" in d.message for d in diags) - 1


async def test_a_finding_whose_text_holds_a_large_number_is_shown_exactly(session):
    """The server cuts the numbers that move out of each diagnostic's JSON
    by writing stand-in numbers first; a message holding a number like one
    (a value the user typed) is shown as written, through edits above it."""
    await session.initialize()
    text = "#!/bin/sh\nvllm serve m --gpu-memory-utilization 2000000003\nvllm serve m --max-modl-len 1\n"
    uri = session.open("big.sh", text, on_disk=False)
    first = await session.diagnostics(uri)
    assert any("2000000003" in d.message for d in first)
    for step in range(3):
        session.edit(uri, [types.TextEdit(range=types.Range(start=types.Position(line=1, character=0),
                                                             end=types.Position(line=1, character=0)),
                                          new_text="# 2000000002\n")])
        kept = await session.diagnostics(uri)
        name = f"fresh-big-{step}.sh"
        fresh = await _fresh(session, name, session.texts[uri], session.versions[uri])
        assert _as_json(kept, uri, session.uri(name)) == _as_json(fresh, uri, session.uri(name))
        assert [d.range.start.line for d in kept if "2000000003" in d.message] == [2 + step]
