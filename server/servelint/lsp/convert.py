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
import hashlib
import itertools
import json
import os
import time
from dataclasses import replace
from typing import Any, Callable, Iterable

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
    data: dict[str, Any] = {"name": d.name, "version": version_of(d.path)}
    if d.flag:
        data["flag"] = d.flag
    if d.record:
        data["record"] = d.record
    if d.vllm_version:
        data["vllmVersion"] = d.vllm_version
    if d.fixes:
        data["fixes"] = [fix_json(f, source_of, version_of) for f in d.fixes]
    return data


class Made(types.Diagnostic):
    """An LSP diagnostic that carries its JSON form (see ``DiagnosticCache``)."""

    __slots__ = ("_json",)


def converter_factory():
    """pygls' converter, sending a ``Made`` diagnostic as the JSON it carries."""
    from pygls.protocol import default_converter

    converter = default_converter()
    plain = converter.get_unstructure_hook(types.Diagnostic)

    def unstructure(d: types.Diagnostic) -> dict:
        made = getattr(d, "_json", None)
        return made if made is not None else plain(d)

    converter.register_unstructure_hook(types.Diagnostic, unstructure)
    return converter


class DiagnosticCache:
    """The LSP diagnostics of a document's last conversion, by what they say
    and where (as LSP positions).

    A keystroke changes one launch's findings; the others keep their
    message, and their range unless a line was added or removed above them.
    Those are not made again: only their ``data``, which names the document
    version, is new.  Building lsprotocol objects and unstructuring them with
    cattrs (to publish, and for the result id) was most of the conversion.
    """

    def __init__(self, unstructure: Callable[[types.Diagnostic], dict]) -> None:
        self._unstructure = unstructure
        self._last: dict[tuple, tuple[types.Diagnostic, dict]] = {}
        self._now: dict[tuple, tuple[types.Diagnostic, dict]] = {}
        self._payload: list | None = None  # the JSON of the last conversion's diagnostics
        self._id = ""

    def result_id(self, diagnostics: list[types.Diagnostic]) -> str:
        """The last conversion's id if its diagnostics are equal to these,
        else a new one: what ``result_id`` answers, without serialising and
        hashing them on every keystroke.  The ids are this server process's
        own, so one from another process (a client's previousResultId after
        a restart) never matches."""
        payload = [self._unstructure(d) for d in diagnostics]
        if self._payload is None or payload != self._payload:
            self._payload = payload
            self._id = f"{_PROCESS}-{next(_ids)}"
        return self._id

    def start(self) -> None:
        """A new conversion: what the one before made and this one does not
        use is dropped at the next start."""
        self._last, self._now = self._now, {}

    def to_lsp(self, d: Diagnostic, source_of: SourceOf, version_of: VersionOf) -> Made:
        src = source_of(d.path)
        related = tuple(
            (r.path, _positions(source_of(r.path), r.span), r.message) for r in d.related
        )
        key = (d.path, _positions(src, d.span), int(d.severity), d.code, d.doc_url or d.name, d.message,
               tuple(d.tags), related)
        known = self._now.get(key) or self._last.get(key)
        if known is None:
            plain = to_lsp(replace(d, fixes=[]), source_of, version_of)
            plain.data = None
            known = (plain, self._unstructure(plain))
        self._now[key] = known
        plain, json_form = known
        data = data_of(d, source_of, version_of)
        made = Made(
            range=plain.range, severity=plain.severity, code=plain.code, code_description=plain.code_description,
            source=plain.source, message=plain.message, tags=plain.tags,
            related_information=plain.related_information, data=data,
        )
        # ``data`` is shared, not copied: a change to ``made.data`` is sent.
        made._json = {**json_form, "data": data}
        return made


_PROCESS = f"{os.getpid():x}.{time.time_ns():x}"
_ids = itertools.count(1)


def _positions(src: SourceText, span: Span) -> tuple[tuple[int, int], tuple[int, int]]:
    return src.position(span.start), src.position(span.end)


def result_id(diagnostics: Iterable[types.Diagnostic], converter) -> str:
    """Changes whenever anything a client keeps (ranges, data) changes."""
    payload = json.dumps([converter.unstructure(d) for d in diagnostics], sort_keys=True)
    return hashlib.sha1(payload.encode("utf-8", "surrogatepass")).hexdigest()[:16]


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
