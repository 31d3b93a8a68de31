"""YAML documents: recognise what each document is, then read its launches.

Every document of a stream is recognised on its own, by shape, never by file
name alone (a ``vllm_config.yaml`` may be an app config; a SkyPilot task may
run SGLang):

=================  ==========================================================
kubernetes         ``apiVersion`` + ``kind`` (``k8s.py``)
compose            ``services:`` whose entries have image/build/command
github-actions     ``jobs:`` with steps, or a composite action's ``runs:``
skypilot           ``run:`` beside resources/envs/setup/...
vllm-config        a flat mapping of vLLM-flag-like keys (``vllm_config.py``)
helm               a values file mentioning vLLM (``helm.py``)
=================  ==========================================================

YAML syntax errors are reported only where they matter: when the file shows
some sign of vLLM, and never for Helm templates (``{{ }}`` makes them
invalid YAML until rendered).
"""

from __future__ import annotations

import logging
import os
from collections import OrderedDict
from dataclasses import replace
from typing import Callable

from yaml.nodes import Node

from ..model import Form, Launch, MovedLaunch, ParsedDocument, ParseProblem, Word
from ..text import Span
from . import problems
from . import yamlnodes as yn
from .compose import is_compose, parse_compose
from .entry import config_refs
from .helm import looks_like_values, parse_helm
from .k8s import is_kubernetes, parse_k8s
from .vllm_config import config_launch, looks_like_vllm_config
from .workflows import is_github_actions, is_skypilot, parse_github_actions, parse_skypilot

log = logging.getLogger(__name__)

_Parser = Callable[[yn.YamlDoc, str], "tuple[list[Launch], list[ParseProblem]]"]


def _vllm_config(doc: yn.YamlDoc, text: str) -> tuple[list[Launch], list[ParseProblem]]:
    return [config_launch(doc.src, doc.root)], []


_PARSERS: dict[Form, _Parser] = {
    Form.KUBERNETES: parse_k8s,
    Form.COMPOSE: parse_compose,
    Form.GITHUB_ACTIONS: parse_github_actions,
    Form.SKYPILOT: parse_skypilot,
    Form.VLLM_CONFIG: _vllm_config,
    Form.HELM: parse_helm,
}


def detect(root: Node | None, text: str, path: str) -> Form | None:
    """The form of one YAML document, or None for YAML that is none of ours."""
    if is_kubernetes(root):
        return Form.KUBERNETES
    if is_compose(root):
        return Form.COMPOSE
    if is_github_actions(root):
        return Form.GITHUB_ACTIONS
    if is_skypilot(root):
        return Form.SKYPILOT
    if looks_like_vllm_config(root):
        return Form.VLLM_CONFIG
    if looks_like_values(root, text, path):
        return Form.HELM
    return None


def parse_yaml_document(path: str, text: str, previous: ParsedDocument | None = None) -> ParsedDocument:
    """All launches of a YAML file.  Never raises.

    Each document (``---`` chunk) is read on its own and the result is
    cached by the chunk's text, relative to the chunk: on a keystroke only the
    edited document is read again.  With ``previous`` (the last parse of the
    same file), a document that did not change is the very same objects (it
    did not move) or its launches moved, marked with where they came from
    (``Launch.moved_from``), so the engine reuses them without a second look.
    """
    result = ParsedDocument(path=path, form=None)
    before: dict[str, list[tuple[int, _Chunk]]] = {}
    had_refs: frozenset = frozenset()
    if previous is not None and isinstance(previous.cache, _YamlChunks):
        for start, chunk, got in previous.cache.chunks:
            before.setdefault(chunk, []).append((start, got))
        had_refs = previous.cache.with_refs
    kept: list[tuple[int, str, _Chunk]] = []
    name = os.path.basename(path)
    syntax: list[ParseProblem] = []
    forms: list[Form] = []
    try:
        pieces = yn.chunks(text)
    except Exception as exc:  # a bug here must not take the server down
        log.exception("reading YAML %s", path)
        result.problems.append(_internal(exc, Span(0, 0)))
        return result
    for start, end in pieces:
        chunk = text[start:end]
        same = before.get(chunk)
        if same:
            was, old = same.pop(0)
            # Unchanged and in place: the same objects; moved: shifted copies
            # that say where they came from.
            got = old if was == start else _shifted(old, start - was, moved=True)
        else:
            # Always a copy: the cached original must stay as it was read.
            got = _shifted(_read_chunk(chunk, name), start)
        kept.append((start, chunk, got))
        chunk_forms, launches, found, chunk_syntax = got
        forms.extend(chunk_forms)
        result.launches.extend(launches)
        result.problems.extend(found)
        syntax.extend(chunk_syntax)
    if syntax and _report_syntax(path, text, forms):
        result.problems[:0] = syntax
    result.form = forms[0] if forms else None
    with_refs = set()
    seen = {id(l) for l in previous.launches} if had_refs or before else set()
    for launch in result.launches:
        # A launch kept or moved from the last parse names a --config file
        # if it did then: its words (maybe not shifted yet) are not read for that.
        if id(launch) in seen:
            if id(launch) not in had_refs:
                continue
        elif isinstance(launch, MovedLaunch) and launch.moved_from is not None:
            if id(launch.moved_from) not in had_refs:
                continue
        for word in config_refs(launch):
            result.config_refs.append((launch, word))
            with_refs.add(id(launch))
    result.cache = _YamlChunks(kept, frozenset(with_refs))
    return result


class _YamlChunks:
    """A parse's documents: (start, text, results at their place in the file)."""

    __slots__ = ("chunks", "with_refs")

    def __init__(self, chunks: list[tuple[int, str, "_Chunk"]], with_refs: frozenset) -> None:
        self.chunks = chunks
        self.with_refs = with_refs  # ids of the launches that name a --config file


_Chunk = tuple  # (forms, launches, problems, syntax problems), chunk offsets
_READ: "OrderedDict[tuple[str, str], _Chunk]" = OrderedDict()
_READ_MAX = 512


def _read_chunk(chunk: str, name: str) -> _Chunk:
    key = (chunk, name)
    hit = _READ.get(key)
    if hit is not None:
        _READ.move_to_end(key)
        return hit
    got = _read_chunk_uncached(chunk, name)
    _READ[key] = got
    if len(_READ) > _READ_MAX:
        _READ.popitem(last=False)
    return got


def _read_chunk_uncached(chunk: str, name: str) -> _Chunk:
    forms: list[Form] = []
    launches: list[Launch] = []
    found: list[ParseProblem] = []
    try:
        docs, problem = yn.load_chunk(chunk)
    except Exception as exc:
        log.exception("composing a YAML document of %s", name)
        return [], [], [_internal(exc, Span(0, 0))], []
    for doc in docs:
        try:
            form = detect(doc.root, chunk, name)
            if form is None:
                continue
            got, problems_ = _PARSERS[form](doc, chunk)
        except Exception as exc:
            log.exception("parsing a YAML document of %s", name)
            found.append(_internal(exc, Span(0, 0)))
            continue
        forms.append(form)
        launches.extend(got)
        found.extend(problems_)
    return forms, launches, found, [problem] if problem is not None else []


# -- moving a cached chunk's results to where the chunk now starts -----------------


def _shifted(got: _Chunk, d: int, moved: bool = False) -> _Chunk:
    forms, launches, found, syntax = got
    launches = [_moved(l, d) if moved else _launch(l, d) for l in launches]
    return forms, launches, [_problem(p, d) for p in found], [
        _problem(p, d) for p in syntax
    ]


def _span(s: Span | None, d: int) -> Span | None:
    return None if s is None else Span(s.start + d, s.end + d)


# ``replace`` keeps any field added to these classes later.
def _problem(p: ParseProblem, d: int) -> ParseProblem:
    return replace(p, span=_span(p.span, d))


def _word(w: Word, d: int) -> Word:
    return replace(
        w,
        span=_span(w.span, d),
        base=w.base + d if w.offsets is None else -1,
        offsets=None if w.offsets is None else [o + d for o in w.offsets],
        node=_value(w.node, d) if isinstance(w.node, yn.YamlValue) else w.node,
    )


def _value(v: yn.YamlValue, d: int) -> yn.YamlValue:
    return replace(
        v,
        span=_span(v.span, d),
        key_span=_span(v.key_span, d),
        children=None if v.children is None else [_value(c, d) for c in v.children],
    )


def _launch(l: Launch, d: int) -> Launch:
    c = l.container
    if isinstance(c, yn.Container):
        c = replace(c, span=_span(c.span, d), items=[_span(i, d) for i in c.items],
                    dashes=[x + d for x in c.dashes])
    return replace(
        l,
        entry_span=_span(l.entry_span, d),
        args=[_word(w, d) for w in l.args],
        span=_span(l.span, d),
        env={k: replace(v, span=_span(v.span, d)) for k, v in l.env.items()},
        release_hints=[replace(h, span=_span(h.span, d)) for h in l.release_hints],
        problems=[_problem(p, d) for p in l.problems],
        opaque=[_word(w, d) for w in l.opaque],
        container=c,
    )


def _moved(origin: Launch, d: int) -> Launch:
    """``origin`` moved with its whole document, shifted only when read.

    Moves of a launch nobody has read since add up: it keeps the launch it
    was last read as and the total distance, not the versions between."""
    origin.moved_from = None  # used by the last lint; see parse.shell._moved
    pending = origin.pending if isinstance(origin, MovedLaunch) and origin.unread else None
    root, total = (pending[0], pending[1] + d) if pending is not None else (origin, d)
    return MovedLaunch.of(
        origin, _span(origin.span, d), _span(origin.entry_span, d),
        [replace(h, span=_span(h.span, d)) for h in origin.release_hints],
        lambda: _launch(root, total), (root, total),
    )


def _report_syntax(path: str, text: str, forms: list[Form]) -> bool:
    if "{{" in text:
        return False
    return bool(forms) or "vllm" in (path + text).lower()


def _internal(exc: Exception, span: Span) -> ParseProblem:
    return ParseProblem(
        problems.PARSE_ERROR,
        f"servelint could not read this YAML document ({type(exc).__name__}: {exc})",
        span,
        "warning",
    )
