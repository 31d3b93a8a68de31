"""Keystrokes as an editor sends them: what is published after each one is
what a fresh look at the same text shows.

The server keeps each diagnostic's LSP form from one keystroke to the next
and splices incremental changes into its copy of the text; these tests type
into documents and compare every answer with the same text opened anew.
"""

from __future__ import annotations

from lsp_harness import position_of
from lsprotocol import types
from servelint.text import SourceText

TWO = (
    "#!/bin/sh\n"
    "vllm serve facebook/opt-125m --max-modl-len 8192\n"
    "echo between\n"
    "vllm serve facebook/opt-125m --tensor-paralel-size 2\n"
)


def _insert(text: str, needle: str, offset: int, new: str) -> types.TextEdit:
    line, char = position_of(text, needle, offset)
    at = types.Position(line=line, character=char)
    return types.TextEdit(range=types.Range(start=at, end=at), new_text=new)


def _seen(diags: list[types.Diagnostic]) -> list[tuple]:
    return sorted((d.code, d.message, d.range.start.line, d.range.start.character,
                   d.range.end.line, d.range.end.character) for d in diags)


async def _fresh(session, name: str, text: str, language_id: str = "shellscript") -> list[tuple]:
    return _seen(await session.diagnostics(session.open(name, text, language_id, on_disk=False)))


async def test_diagnostics_move_and_change_with_each_keystroke(session):
    await session.initialize()
    uri = session.open("two.sh", TWO)
    first = await session.diagnostics(uri)
    assert [(d.code, d.range.start.line) for d in sorted(first, key=lambda d: d.range.start.line)] == [
        ("SL101", 1), ("SL101", 3)]

    # A line typed above both: the same findings, one line further down.
    session.edit(uri, [_insert(session.texts[uri], "vllm", 0, "# pinned below\n")])
    moved = await session.diagnostics(uri)
    assert _seen(moved) == [(c, m, sl + 1, sc, el + 1, ec) for c, m, sl, sc, el, ec in _seen(first)]
    # Their data names the version they were computed on (code actions rely on it).
    assert {d.data["version"] for d in moved} == {session.versions[uri]}

    # The second flag's typo fixed: its finding goes, the first stays.
    session.edit(uri, [_insert(session.texts[uri], "--tensor-paral", len("--tensor-paral"), "l")])
    typed = await session.diagnostics(uri)
    assert _seen(typed) == [s for s in _seen(moved) if "--max-modl-len" in s[1]]
    assert _seen(typed) == await _fresh(session, "fresh-typed.sh", session.texts[uri])

    # And made again: as it was after the line was typed.
    line, char = position_of(session.texts[uri], "--tensor-parallel", len("--tensor-paral"))
    session.edit(uri, [types.TextEdit(range=types.Range(start=types.Position(line=line, character=char),
                                                         end=types.Position(line=line, character=char + 1)),
                                      new_text="")])
    assert _seen(await session.diagnostics(uri)) == _seen(moved)

    # The quick fix offered for a kept finding is for the current version.
    diag = next(d for d in await session.diagnostics(uri) if "--max-modl-len" in d.message)
    actions = await session.code_actions(uri, diag.range, [diag])
    assert actions and actions[0].title == "Replace with --max-model-len"
    edit = actions[0].edit
    if edit.document_changes:
        assert edit.document_changes[0].text_document.version == session.versions[uri]


MIXED = (
    "#!/bin/sh\r\n"
    "vllm serve facebook/opt-125m --max-modl-len 8192\r\n"
    "# a lone carriage return follows\r"
    "echo \u2028 not a line break \x0c either\n"
    "vllm serve facebook/opt-125m --tensor-paralel-size 2\n"
)


async def test_incremental_changes_around_unusual_line_breaks(session):
    """Carriage returns that join or part from a line feed, separators that
    are no line break to an editor, edits spanning several lines."""
    await session.initialize()
    uri = session.open("mixed.sh", MIXED)
    await session.diagnostics(uri)

    def at(needle: str, offset: int = 0) -> types.Position:
        text = session.texts[uri]
        k = text.index(needle) + offset
        line, char = SourceText(text, session.encoding).position(k)
        return types.Position(line=line, character=char)

    def typo(fix: bool) -> list[types.TextEdit]:
        # on the last line: found at the wrong place if the server lost count of the lines above
        if fix:
            return [types.TextEdit(range=types.Range(start=at("paralel", 5), end=at("paralel", 5)), new_text="l")]
        return [types.TextEdit(range=types.Range(start=at("parallel", 5), end=at("parallel", 6)), new_text="")]

    steps = [
        # a line feed after the lone carriage return: the two become one break
        lambda: [types.TextEdit(range=types.Range(start=at("echo"), end=at("echo")), new_text="\n")],
        lambda: typo(True),
        # that CRLF replaced by a lone carriage return again
        lambda: [types.TextEdit(range=types.Range(start=at("follows"), end=at("echo")), new_text="follows\r")],
        lambda: typo(False),
        # a carriage return typed before a line feed
        lambda: [types.TextEdit(range=types.Range(start=at("either\n", 6), end=at("either\n", 6)), new_text="\r")],
        lambda: typo(True),
        # one edit across three lines, through the U+2028
        lambda: [types.TextEdit(range=types.Range(start=at("8192"), end=at("not a")), new_text="4096\r\n# ")],
        lambda: typo(False),
        # text typed after U+2028 and a form feed
        lambda: [types.TextEdit(range=types.Range(start=at("\x0c", 1), end=at("\x0c", 1)), new_text="x\u2028y")],
        lambda: typo(True),
    ]
    for k, step in enumerate(steps):
        session.edit(uri, step())
        got = _seen(await session.diagnostics(uri))
        assert got == await _fresh(session, f"fresh-{k}.sh", session.texts[uri]), (k, session.texts[uri])
    assert "--max-modl-len 4096" in session.texts[uri]
    assert [c for c, *_ in got] == ["SL101"]
