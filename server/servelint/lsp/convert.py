"""Engine objects → LSP objects, and back.

Positions are converted only here, with ``SourceText`` built for the
negotiated position encoding, so no handler ever counts columns itself.

The ``data`` of each published diagnostic carries what the code actions need
(the fixes' edits as LSP ranges, and the document version they apply to), so
answering ``textDocument/codeAction`` needs no second lint.  Clients hand
``data`` back untouched, but it is still input from outside: ``fixes_from_data``
validates it and drops what does not fit.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Callable

from lsprotocol import types
from pygls import uris

from ..diagnostics import Diagnostic, Edit, Fix
from ..output import doc_url
from ..text import SourceText, Span

SOURCE = "servelint"

_TAGS = {"deprecated": types.DiagnosticTag.Deprecated, "unnecessary": types.DiagnosticTag.Unnecessary}

SourceOf = Callable[[str], SourceText]
VersionOf = Callable[[str], "int | None"]


@functools.lru_cache(maxsize=4096)
def uri_of(path: str) -> str:
    return uris.from_fs_path(path) or path


def lsp_range(src: SourceText, span: Span) -> types.Range:
    sl, sc = src.position(span.start)
    el, ec = src.position(span.end)
    return types.Range(start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec))


def span_of(src: SourceText, rng: types.Range) -> Span:
    start = src.offset_at(rng.start.line, rng.start.character)
    end = src.offset_at(rng.end.line, rng.end.character)
    return Span(start, max(start, end))


def range_from_json(obj: Any) -> types.Range | None:
    try:
        s, e = obj["start"], obj["end"]
        vals = [s["line"], s["character"], e["line"], e["character"]]
    except (KeyError, TypeError):
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in vals):
        return None
    return types.Range(
        start=types.Position(line=vals[0], character=vals[1]),
        end=types.Position(line=vals[2], character=vals[3]),
    )


def edit_json(edit: Edit, source_of: SourceOf, version_of: VersionOf) -> dict:
    """``version``: of the text the range was computed on (None: a file on disk)."""
    return {
        "uri": uri_of(edit.path),
        "version": version_of(edit.path),
        "range": source_of(edit.path).range(edit.span),
        "newText": edit.new_text,
    }


def fix_json(fix: Fix, source_of: SourceOf, version_of: VersionOf) -> dict:
    return {
        "title": fix.title,
        "safe": fix.safe,
        "preferred": fix.preferred,
        "edits": [edit_json(e, source_of, version_of) for e in fix.edits],
    }


def to_lsp(d: Diagnostic, source_of: SourceOf, version_of: VersionOf) -> types.Diagnostic:
    src = source_of(d.path)
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(uri=uri_of(r.path), range=lsp_range(source_of(r.path), r.span)),
            message=r.message,
        )
        for r in d.related
    ]
    return types.Diagnostic(
        range=lsp_range(src, d.span),
        severity=types.DiagnosticSeverity(int(d.severity)),
        code=d.code,
        code_description=types.CodeDescription(href=d.doc_url or doc_url(d.name)),
        source=SOURCE,
        message=d.message,
        tags=[_TAGS[t] for t in d.tags if t in _TAGS] or None,
        related_information=related or None,
        data=data_of(d, source_of, version_of),
    )


def data_of(d: Diagnostic, source_of: SourceOf, version_of: VersionOf) -> dict[str, Any]:
    """What the server's own handlers read back: the rule's name (suppressing
    it), the document version and the fixes (code actions), the record
    (hover).  Nothing else: every push carries the data of every diagnostic
    of the document."""
    data: dict[str, Any] = {"name": d.name, "version": version_of(d.path)}
    if d.record:
        data["record"] = d.record
    if d.fixes:
        data["fixes"] = [fix_json(f, source_of, version_of) for f in d.fixes]
    return data


class Encoded(str):
    """One diagnostic as the JSON text it is sent as (see ``forms`` and
    ``pygls_compat.Splice``): a ``str`` where an lsprotocol diagnostic
    would be is taken as one (the texts of an ``EncodedList`` are plain)."""

    __slots__ = ()

    @property
    def json(self) -> str:
        return str.__str__(self)


class EncodedList(list):
    """A document's diagnostics as the JSON texts they are sent as (each one
    a ``str``, as an ``Encoded`` is), with the JSON array they make
    (``json``): a message carrying them is written with the array spliced in
    whole, not the diagnostics one by one (``converter_factory``).  The
    texts are held as they are: a keystroke's 300 diagnostics are ~150 KB,
    and a copy of each was made for every publish before."""

    __slots__ = ("json",)

    def __init__(self, texts: list[str]) -> None:
        super().__init__(texts)
        self.json = ",".join(texts).join(("[", "]"))


# The messages that carry a document's diagnostics, and the field holding them.
_DIAGNOSTIC_LISTS = (
    (types.PublishDiagnosticsParams, "diagnostics"),
    (types.RelatedFullDocumentDiagnosticReport, "items"),
    (types.WorkspaceFullDocumentDiagnosticReport, "items"),
)


def converter_factory(splice=None):
    """pygls' converter, sending an encoded diagnostic (``Encoded``)
    as the JSON it is: spliced into the message by ``splice`` (see
    ``pygls_compat.Splice``), or decoded when no message is being encoded."""
    from pygls.protocol import default_converter

    converter = default_converter()
    plain = converter.get_unstructure_hook(types.Diagnostic)

    def unstructure(d) -> Any:
        if isinstance(d, str):  # an ``Encoded`` one, or one of an ``EncodedList``
            token = splice.token(d) if splice is not None else None
            return token if token is not None else json.loads(d)
        return plain(d)

    converter.register_unstructure_hook(types.Diagnostic, unstructure)
    for cls, name in _DIAGNOSTIC_LISTS:
        converter.register_unstructure_hook(cls, _whole_list(converter.get_unstructure_hook(cls), name, splice))
    return converter


def _whole_list(plain: Callable, name: str, splice) -> Callable:
    """An unstructure hook for a message holding diagnostics in ``name``:
    an ``EncodedList`` goes into the message as one piece of JSON (a
    keystroke's 300 diagnostics were 300 pieces, each found again in the
    encoded message)."""
    import attrs

    def unstructure(obj) -> Any:
        seq = getattr(obj, name)
        if type(seq) is EncodedList and splice is not None:
            token = splice.token(seq.json)
            if token is not None:
                out = plain(attrs.evolve(obj, **{name: []}))
                out[name] = token
                return out
        return plain(obj)

    return unstructure


DocEdits = dict[str, tuple["int | None", list[types.TextEdit]]]


def text_edits_from_json(edits: Any) -> DocEdits | None:
    """``uri → (version, [TextEdit])`` from a fix in ``data``; None if malformed."""
    if not isinstance(edits, list) or not edits:
        return None
    out: DocEdits = {}
    for e in edits:
        if not isinstance(e, dict):
            return None
        uri, new_text, rng = e.get("uri"), e.get("newText"), range_from_json(e.get("range"))
        version = e.get("version")
        if not isinstance(uri, str) or not isinstance(new_text, str) or rng is None:
            return None
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            return None
        entry = out.setdefault(uri, (version, []))
        if entry[0] != version:
            return None
        entry[1].append(types.TextEdit(range=rng, new_text=new_text))
    return out


def merge_edits(into: DocEdits, more: DocEdits) -> None:
    for uri, (version, tes) in more.items():
        into.setdefault(uri, (version, []))[1].extend(tes)


def workspace_edit(edits: DocEdits, document_changes: bool) -> types.WorkspaceEdit:
    """With ``documentChanges`` the client refuses an edit made for another
    version of the document, instead of applying it at shifted positions."""
    if document_changes:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
                    edits=list(tes),
                )
                for uri, (version, tes) in edits.items()
            ]
        )
    return types.WorkspaceEdit(changes={uri: list(tes) for uri, (_, tes) in edits.items()})
