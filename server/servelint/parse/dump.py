"""A readable, stable rendering of parse results, for golden files.

Ranges are written ``L:C-L:C`` (0-based line, UTF-16 column, as in LSP) and
each word also shows the text its range covers, so a reviewer can see at a
glance that the range is right.
"""

from __future__ import annotations

from ..model import Launch, ParsedDocument, Word
from ..text import SourceText, Span


def _rng(src: SourceText, span: Span) -> str:
    (sl, sc), (el, ec) = src.position(span.start), src.position(span.end)
    return f"{sl}:{sc}-{el}:{ec}"


def _word(src: SourceText, w: Word) -> dict:
    out: dict = {"text": w.text, "range": _rng(src, w.span)}
    written = src.text[w.span.start : w.span.end]
    if written != w.text:
        out["written"] = written
    if not w.exact:
        out["exact"] = False
        if w.note:
            out["note"] = w.note
    if w.role:
        out["role"] = w.role
    return out


def _problem(src: SourceText, p) -> dict:
    out = {"name": p.code, "range": _rng(src, p.span), "message": p.message}
    if p.data:
        out["data"] = p.data
    return out


def dump_launch(src: SourceText, launch: Launch) -> dict:
    out: dict = {
        "form": launch.form.value,
        "entry": launch.entry.value,
        "entry_range": _rng(src, launch.entry_span),
        "range": _rng(src, launch.span),
        "args": [_word(src, w) for w in launch.args],
    }
    if launch.image:
        out["image"] = launch.image
    if launch.entry_unknown:
        out["entry_unknown"] = launch.entry_unknown
    if launch.build is not None:
        b = launch.build
        out["build"] = {"context": b.context, "dockerfile": b.path, "range": _rng(src, b.span)}
        if b.target:
            out["build"]["target"] = b.target
    if launch.env:
        out["env"] = {
            k: (v.value if v.exact else {"value": v.value, "exact": False})
            for k, v in sorted(launch.env.items())
        }
    if launch.opaque:
        out["opaque"] = [_word(src, w) for w in launch.opaque]
    if launch.problems:
        out["problems"] = [
            _problem(src, p) for p in launch.problems
        ]
    if launch.inputs:
        out["inputs"] = [_input(src, i) for i in launch.inputs]
    if launch.written_config is not None:
        out["written_config"] = dump_launch(src, launch.written_config)
    if launch.release_hints:
        out["release_hints"] = [h.version for h in launch.release_hints]
    return out


def _input(src: SourceText, inp) -> dict:
    out: dict = {"name": inp.name, "uses": [_rng(src, s) for s in inp.uses]}
    if inp.guard is not None:
        out["guard"] = {"kind": inp.guard_kind, "range": _rng(src, inp.guard)}
    return out


def dump_document(doc: ParsedDocument, text: str) -> dict:
    src = SourceText(text)
    out: dict = {"launches": [dump_launch(src, launch) for launch in doc.launches]}
    if doc.problems:
        out["problems"] = [
            {"name": p.code, "range": _rng(src, p.span), "message": p.message}
            for p in doc.problems
        ]
    if doc.release_hints:
        out["release_hints"] = [
            {"version": h.version, "kind": h.kind, "range": _rng(src, h.span)}
            for h in doc.release_hints
        ]
    return out


def describe_launch(src: SourceText, launch: Launch) -> dict:
    """What a user needs to see why a launch reads as it does (``check
    --show-launches``, the entry point's hover): how it starts, what is not
    known about it, and what may hide flags.  Ranges are LSP ranges."""
    out: dict = {
        "form": launch.form.value,
        "entry": launch.entry.value,
        "entry_range": src.range(launch.entry_span),
        "range": src.range(launch.span),
    }
    if launch.image:
        out["image"] = launch.image
    if launch.entry_unknown:
        out["entry_unknown"] = launch.entry_unknown
    if launch.build is not None:
        out["build"] = {"context": launch.build.context, "dockerfile": launch.build.path}
    if launch.env:
        out["env"] = {k: (v.value if v.exact else None) for k, v in sorted(launch.env.items())}
    if launch.opaque:
        out["opaque"] = [{"text": w.text, "note": w.note or ""} for w in launch.opaque]
    if launch.inputs:
        out["inputs"] = [
            {"name": i.name, "uses": [src.range(s) for s in i.uses],
             **({"guard": {"kind": i.guard_kind, "range": src.range(i.guard)}} if i.guard is not None else {})}
            for i in launch.inputs
        ]
    if launch.written_config is not None:
        out["written_config"] = {"range": src.range(launch.written_config.span)}
    if launch.problems:
        out["problems"] = [{"name": p.code, "range": src.range(p.span), "message": p.message}
                           for p in launch.problems]
    return out
