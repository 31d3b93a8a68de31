"""The private pygls API servelint relies on (all of it in lsp/pygls_compat.py)
is still there, in the pygls version the shims were written against.

A different pygls may have moved or changed any of it without a word: this
fails first, saying what to re-check, instead of a document whose lines drift
after an edit or a server that does not stop on ``exit``.
"""

from __future__ import annotations

from importlib.metadata import version

from lsprotocol import types

from servelint.lsp import pygls_compat


def test_pygls_is_the_version_the_shims_were_written_against() -> None:
    installed = version("pygls")
    assert installed == pygls_compat.PYGLS_VERSION, (
        f"pygls {installed} is installed, but servelint/lsp/pygls_compat.py was written against "
        f"pygls {pygls_compat.PYGLS_VERSION}: check each of its PRIVATE_NAMES against the new pygls "
        "(the workspace's document factory, TextDocument's incremental edit, the server's stop event), "
        "then update PYGLS_VERSION and the pin in pyproject.toml"
    )


def test_every_private_name_the_shims_use_exists() -> None:
    assert pygls_compat.missing_private_names() == []


def test_documents_are_made_with_lsp_lines_and_edits_land_where_the_editor_puts_them() -> None:
    from pygls.workspace import Workspace

    ws = Workspace(None)
    pygls_compat.use_lsp_lines(ws)
    # A form feed and U+2028 are no line break to an editor (str.splitlines breaks at both).
    ws.put_text_document(types.TextDocumentItem(uri="file:///a.sh", language_id="shellscript", version=1,
                                                text="a\x0cb\u2028c\nvllm serve m\n"))
    doc = ws.get_text_document("file:///a.sh")
    assert isinstance(doc, pygls_compat.LspLines)
    assert doc.lines == ("a\x0cb\u2028c\n", "vllm serve m\n")
    edit = types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(line=1, character=11), end=types.Position(line=1, character=12)),
        text="meta-llama/Llama-3.1-8B")
    ws.update_text_document(types.VersionedTextDocumentIdentifier(uri="file:///a.sh", version=2), edit)
    assert doc.source == "a\x0cb\u2028c\nvllm serve meta-llama/Llama-3.1-8B\n"
    assert doc.lines == ("a\x0cb\u2028c\n", "vllm serve meta-llama/Llama-3.1-8B\n")
