"""YAML documents: recognise what each document is, then read its launches.

Every document of a stream is recognised on its own, by shape, never by file
name alone (a ``vllm_config.yaml`` may be an app config; a SkyPilot task may
run SGLang):

=================  ==========================================================
kubernetes         ``apiVersion`` + ``kind`` (``operators.py``, then ``k8s.py``)
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
from bisect import bisect_right
from collections import OrderedDict
from operator import is_
from typing import Callable

from yaml.nodes import MappingNode, Node, SequenceNode

from ..structs import copier
from ..model import EnvVar, Form, ImageBuild, Input, Launch, MovedLaunch, ParsedDocument, ParseProblem, ReleaseHint, Word
from ..text import KnownEdit, Span, edit_between
from . import deployment, hints, problems, templates
from . import yamlnodes as yn
from .compose import is_compose, parse_compose
from .entry import config_refs
from .helm import looks_like_values, parse_helm
from .k8s import is_kubernetes
from .operators import parse_kubernetes
from .vllm_config import config_launch, looks_like_vllm_config
from .workflows import is_github_actions, is_skypilot, parse_github_actions, parse_skypilot

log = logging.getLogger(__name__)

# (document, its chunk's text, stop_after) → (launches, problems).  A
# parser may stop once it has ``stop_after`` launches (0: never): a
# generated file can hold thousands in one document, and the engine checks
# no more than its limit.
_Parser = Callable[[yn.YamlDoc, str, int], "tuple[list[Launch], list[ParseProblem]]"]


def _vllm_config(doc: yn.YamlDoc, text: str, stop_after: int = 0) -> tuple[list[Launch], list[ParseProblem]]:
    return [config_launch(doc.src, doc.root)], []


_PARSERS: dict[Form, _Parser] = {
    Form.KUBERNETES: parse_kubernetes,
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


def parse_yaml_document(path: str, text: str, previous: ParsedDocument | None = None,
                        max_launches: int = 0, edit: "KnownEdit | None" = None) -> ParsedDocument:
    """All launches of a YAML file, with the file's release hints and
    directives.  Never raises.

    Each document (``---`` chunk) is read on its own, at its place in the
    file, and cached by its text: a chunk seen before is copied from the
    cache to where it now is.  With ``previous`` (the last parse of the same
    file) only the documents the edit touched are looked at: those above it
    are the very same objects, those below it moved launches that say where
    they came from (``Launch.moved_from``), so the engine reuses them
    without a second look, and nothing else of the text is scanned again.

    With ``max_launches``, documents after the one holding the first launch
    past that many are not read (``unread`` is that launch's entry).
    """
    result = ParsedDocument(path=path, form=None)
    name = os.path.basename(path)
    prev = previous.cache if previous is not None and isinstance(previous.cache, _YamlChunks) else None
    try:
        plan = _replan(prev, text, edit) if prev is not None else None
        docs = _reread(prev, text, name, plan) if plan is not None else None
        if docs is not None and max_launches and sum(len(d.launches) for d in docs) > max_launches:
            # Now past the limit: read as a fresh parse reads it.
            docs = plan = None
        if docs is None:
            docs = _read_all(text, name, max_launches)
    except Exception as exc:  # a bug here must not take the server down
        log.exception("reading YAML %s", path)
        result.problems.append(_internal(exc, Span(0, 0)))
        hints.attach(result, text)
        return result
    forms: list[Form] = []
    syntax: list[ParseProblem] = []
    launches, found, release_hints, directives = (
        result.launches, result.problems, result.release_hints, result.directives)
    config_refs_ = result.config_refs
    for d in docs:
        if d.forms:
            forms.extend(d.forms)
        launches.extend(d.launches)
        if d.problems:
            found.extend(d.problems)
        if d.syntax:
            syntax.extend(d.syntax)
        if d.hints:
            release_hints.extend(d.hints)
        if d.directives:
            directives.extend(d.directives)
        if d.refs:
            config_refs_.extend(d.config_refs())
    if syntax and _report_syntax(path, text, forms, docs):
        found[:0] = syntax
    # A Service in one document sends traffic to the pods of another.
    deployment.link_services(launches, [svc for d in docs for svc in d.services])
    result.form = forms[0] if forms else None
    if max_launches and len(launches) > max_launches:
        result.unread = launches[max_launches].entry_span
        # The documents past it were not read: the next parse reads again
        # (the limit is far above what a hand-written file holds).
        return result
    result.cache = _YamlChunks(text, docs, plan is None and _whole(text))
    return result


class _Doc:
    """One ``---`` chunk of a parse: what was read in it, at its place.

    ``line`` is the line the chunk starts on (for the directives' line
    numbers); ``refs`` the indices of the launches naming a ``--config``
    file, known when the chunk is read so that a moved chunk's launches are
    not shifted just to look for one; ``services`` the Kubernetes Services
    it declares (``deployment.link_services`` holds them against the pods
    of every document).
    """

    __slots__ = ("start", "end", "line", "forms", "launches", "problems", "syntax",
                 "hints", "directives", "refs", "services", "part", "_ref_words", "_marks")

    def __init__(self, start: int, end: int, line: int, forms: list, launches: list, problems: list,
                 syntax: list, hints: list, directives: list, refs: tuple, services: list = (),
                 part: "str | int | None" = None) -> None:
        self.start, self.end, self.line = start, end, line
        self.forms, self.launches, self.problems, self.syntax = forms, launches, problems, syntax
        self.hints, self.directives, self.refs = hints, directives, refs
        self.services = services
        # None: a whole document; LIST_HEAD: a List's lines up to its first
        # item; an int: one item of a List, at that indentation.
        self.part = part
        self._ref_words: list | None = None
        self._marks: tuple[bool, bool] | None = None

    def marks(self, text: str) -> tuple[bool, bool]:
        """(holds ``{{``, names vllm in any case) of its text in ``text``."""
        got = self._marks
        if got is None:
            chunk = text[self.start : self.end]
            got = self._marks = ("{{" in chunk, "vllm" in chunk.lower())
        return got

    def config_refs(self) -> list[tuple[Launch, Word]]:
        got = self._ref_words
        if got is None:
            got = self._ref_words = [(self.launches[i], w) for i in self.refs
                                     for w in config_refs(self.launches[i])]
        return got

    def moved(self, d: int, lines: int, lazily: bool) -> "_Doc":
        """A copy ``d`` characters and ``lines`` lines further.  ``lazily``:
        launches shifted only when read (``_moved``), else copied now."""
        if lazily and d == 0:
            if lines == 0:
                return self
            # Same place, other line numbers (an edit above changed its
            # line breaks, not its length): the same launches.
            same = _Doc(self.start, self.end, self.line + lines, self.forms, self.launches,
                        self.problems, self.syntax, self.hints,
                        [(line + lines, body, span) for line, body, span in self.directives], self.refs,
                        self.services, self.part)
            same._ref_words, same._marks = self._ref_words, self._marks
            return same
        # Every document below an edit moves on every keystroke: empty
        # lists (most of them) are shared, not copied.
        launches, problems_, syntax, hints_, directives = (
            self.launches, self.problems, self.syntax, self.hints, self.directives)
        hints_moved = [_hint(h, d) for h in hints_] if hints_ else hints_
        # A launch's hints are its document's own objects (``_share_hints``):
        # each is moved once, for both.
        shared = (hints_, hints_moved) if hints_ and launches else None
        moved = _Doc(
            self.start + d, self.end + d, self.line + lines, self.forms,
            ([_moved(l, d, shared) for l in launches] if lazily else [_launch(l, d, shared) for l in launches])
            if launches else launches,
            [_problem(p, d) for p in problems_] if problems_ else problems_,
            [_problem(p, d) for p in syntax] if syntax else syntax,
            hints_moved,
            [(line + lines, body, _span(span, d)) for line, body, span in directives]
            if directives else directives,
            self.refs,
            [svc.moved(d) for svc in self.services] if self.services else self.services,
            self.part,
        )
        moved._marks = self._marks  # the same text
        return moved


class _YamlChunks:
    """A parse's documents, for the next parse of the same file."""

    __slots__ = ("text", "docs", "whole")

    def __init__(self, text: str, docs: list[_Doc], whole: bool) -> None:
        self.text = text
        self.docs = docs
        self.whole = whole  # a %-directive stream, read as one chunk (see yamlnodes.chunks)


def _whole(text: str) -> bool:
    return yn.directive_stream(text)


_READ: "OrderedDict[tuple[str, str, str | int | None], _Doc]" = OrderedDict()
_READ_MAX = 512


def _read_all(text: str, name: str, max_launches: int = 0) -> list[_Doc]:
    """The documents of ``text``; with ``max_launches``, up to the one
    holding the first launch past that many."""
    docs = []
    line = last = 0
    count = 0
    for start, end in yn.chunks(text):
        line += text.count("\n", last, start)
        last = start
        for doc in _read_document(text, start, end, line, name, max_launches and max_launches + 1 - count):
            docs.append(doc)
            count += len(doc.launches)
            if max_launches and count > max_launches:
                return docs
    return docs


# The part of a List document before its first item (see ``_read_document``).
LIST_HEAD = "head"


def _read_document(text: str, start: int, end: int, line: int, name: str, stop_after: int = 0) -> list[_Doc]:
    """One ``---`` document, as one ``_Doc``; a Kubernetes ``List`` whose
    items the text shows plainly (``yamlnodes.list_items``) as its head and
    one ``_Doc`` per item, each composed alone, so that an edit re-reads only
    its item.  Either way each item is read as an object of its own
    (``_objects``): the results are the same."""
    chunk = text[start:end]
    starts = yn.list_items(chunk)
    if starts is None:
        return [_read(text, start, end, line, name, chunk, stop_after=stop_after)]
    bounds = [start] + [start + s for s in starts] + [end]
    indent = _indent_at(text, bounds[1])
    out: list[_Doc] = []
    at_line = line
    for i in range(len(bounds) - 1):
        a, b = bounds[i], bounds[i + 1]
        if i:
            at_line += text.count("\n", bounds[i - 1], a)
        got = _read(text, a, b, at_line, name, part=LIST_HEAD if i == 0 else indent)
        if got is None:  # an item that does not compose alone: the document whole
            return [_read(text, start, end, line, name, chunk, stop_after=stop_after)]
        out.append(got)
    return out


def _indent_at(text: str, at: int) -> int:
    """The indentation of the line starting at ``at``."""
    k = at
    while k < len(text) and text[k] == " ":
        k += 1
    return k - at


def _replan(prev: _YamlChunks, text: str, edit: "KnownEdit | None" = None) -> tuple | None:
    """Which of the last parse's documents an edit touched: (first, last,
    shift, new starts, part): documents ``first..last`` are replaced by the
    chunks starting at ``new starts`` (the region read again; ``part``: the
    items' indentation when they are items of a List), the ones after move
    by ``shift``.  None when the text must be read whole."""
    old = prev.text
    if prev.whole or text.startswith("%"):
        return None
    s, old_end, new_end = edit_between(old, text, edit)
    if yn.directive_stream(text[max(0, s - 1) : new_end + 1]):
        return None
    docs = prev.docs
    starts = _Starts(docs)
    # A cut is a "---" at a line start followed by a blank or the end:
    # text[c-1 : c+4] decides it.  The first document kept must start far
    # enough before the edit; the one holding the edit's end is read again,
    # and the cut after it (c > old_end, so text[c-1:] is unchanged) stays.
    first = bisect_right(starts, s) - 1
    if first > 0 and s < docs[first].start + 4:
        first -= 1
    last = bisect_right(starts, old_end) - 1
    d = new_end - old_end
    a, b = docs[first].start, docs[last].end + d
    if any(docs[i].part is not None for i in range(first, last + 1)):
        return _replan_items(docs, text, first, last, d)
    cuts = [a] + [m for m in yn.cuts(text, a + 1, b)]
    return first, last, d, cuts, None


def _replan_items(docs: list[_Doc], text: str, first: int, last: int, d: int):
    """``_replan`` for an edit inside the items of a List: the items
    ``first..last`` replaced by those the edited text shows at the same
    indentation, as ``yamlnodes.list_items`` would cut them; None (read the
    text whole) when the edit reaches the List's head or leaves the items
    other than plain (a dedented line, an anchor...)."""
    k = docs[first].part
    if not isinstance(k, int) or any(docs[i].part != k for i in range(first, last + 1)):
        return None
    a, b = docs[first].start, docs[last].end + d
    cuts = yn.item_starts(text, a, b, k)
    if not cuts or cuts[0] != a:
        return None
    return first, last, d, cuts, k


class _Starts:
    """The documents' starts as a sequence, for ``bisect`` (no list built)."""

    __slots__ = ("docs",)

    def __init__(self, docs: list[_Doc]) -> None:
        self.docs = docs

    def __len__(self) -> int:
        return len(self.docs)

    def __getitem__(self, i: int) -> int:
        return self.docs[i].start


def _reread(prev: _YamlChunks, text: str, name: str, plan: tuple) -> list[_Doc] | None:
    first, last, d, cuts, part = plan
    old, docs = prev.text, prev.docs
    a = docs[first].start
    end = docs[last].end + d
    # Old documents of the region by text: one the edit did not change is
    # kept (in place) or moved, not read again.
    before: dict[str, list[_Doc]] = {}
    for doc in docs[first : last + 1]:
        before.setdefault(old[doc.start : doc.end], []).append(doc)
    line = docs[first].line
    region = []
    bounds = cuts + [end]
    for i in range(len(cuts)):
        start, stop = bounds[i], bounds[i + 1]
        if i:
            line += text.count("\n", bounds[i - 1], start)
        chunk = text[start:stop]
        same = before.get(chunk)
        if same:
            was = same.pop(0)
            region.append(was.moved(start - was.start, line - was.line, lazily=True))
        else:
            got = _read(text, start, stop, line, name, chunk, part=part)
            if got is None:
                return None  # an item that does not compose alone: read the text whole
            region.append(got)
    after = docs[last + 1 :]
    if after:
        lines = text.count("\n", a, end) - old.count("\n", a, docs[last].end)
        if d or lines:
            after = [doc.moved(d, lines, lazily=True) for doc in after]
    return docs[:first] + region + after


def _read(text: str, start: int, end: int, line: int, name: str, chunk: str | None = None,
          stop_after: int = 0, part: "str | int | None" = None) -> "_Doc | None":
    """The chunk ``text[start:end]`` read at its place; a chunk read before
    (anywhere, in any file of that name) is copied from the cache.
    ``stop_after``: its parsers may stop once they have that many launches
    (such a read is not cached).  ``part``: what of a List the chunk is
    (``_Doc.part``); None for an item that does not compose alone."""
    if chunk is None:
        chunk = text[start:end]
    key = (chunk, name, part)
    hit = _READ.get(key)
    if hit is not None:
        _READ.move_to_end(key)
        # Always a copy: the cached one was handed out with the parse that
        # read it, and two parses must not share launches.
        return hit.moved(start - hit.start, line - hit.line, lazily=False)
    got = _read_uncached(text, chunk, start, end, line, name, stop_after, part)
    if got is None:
        return None
    if stop_after and len(got.launches) >= stop_after:
        return got  # perhaps cut short: not what another read would find
    _READ[key] = got
    if len(_READ) > _READ_MAX:
        _READ.popitem(last=False)
    return got


def _read_uncached(text: str, chunk: str, start: int, end: int, line: int, name: str,
                   stop_after: int = 0, part: "str | int | None" = None) -> "_Doc | None":
    forms: list[Form] = []
    launches: list[Launch] = []
    found: list[ParseProblem] = []
    release_hints, directives = hints.scan(text, start, end, line)
    marks = None
    read_text, read_chunk = text, chunk
    if templates.has_template(chunk):
        # Not YAML until rendered: read with its template actions hidden.
        read_chunk, marks = templates.mask(chunk, start)
        read_text = text[:start] + read_chunk + text[end:]
    try:
        docs, problem = yn.load_at(read_text, start, end, read_chunk)
    except Exception as exc:
        log.exception("composing a YAML document of %s", name)
        return _Doc(start, end, line, [], [], [_internal(exc, Span(start, start))], [],
                    release_hints, directives, ())
    if isinstance(part, int):
        # One item of a List, composed alone: a sequence of one object.
        root = docs[0].root if len(docs) == 1 and problem is None else None
        if not (isinstance(root, SequenceNode) and len(root.value) == 1):
            return None
    services: list = []
    for doc in docs:
        try:
            if isinstance(part, int):
                form, objects = None, [yn.YamlDoc(doc.src, doc.root.value[0], doc.span)]
            else:
                form = detect(doc.root, chunk, name)
                if form is None:
                    continue
                objects = _objects(doc) if form is Form.KUBERNETES else [doc]
            for obj in objects:
                kind = form
                if obj is not doc:  # an item of a List
                    kind = Form.KUBERNETES if is_kubernetes(obj.root) else None
                    if kind is None:
                        continue
                if kind is Form.KUBERNETES:
                    services.extend(deployment.services(obj.src, obj.root))
                got, problems_ = _PARSERS[kind](obj, chunk, stop_after and stop_after - len(launches))
                launches.extend(got)
                found.extend(problems_)
                if stop_after and len(launches) >= stop_after:
                    break
        except Exception as exc:
            log.exception("parsing a YAML document of %s", name)
            found.append(_internal(exc, Span(start, start)))
            continue
        if form is not None:
            forms.append(form)
        if stop_after and len(launches) >= stop_after:
            break
    if marks is not None:
        tool = "the chart" if any(k in chunk for k in (".Values", ".Release", ".Chart")) else (
            "the operator reading this resource")
        for launch in launches:
            templates.finish(launch, marks, text, tool)
    if release_hints and launches:
        _share_hints(launches, release_hints)
    refs = tuple(i for i, l in enumerate(launches) if config_refs(l))
    return _Doc(start, end, line, forms, launches, found, [problem] if problem is not None else [],
                release_hints, directives, refs, services, part)


def _objects(doc: yn.YamlDoc) -> list[yn.YamlDoc]:
    """The Kubernetes objects of a document: a ``List``'s items, each an
    object of its own (as ``kubectl`` applies them: its own namespace, its
    own kind), or the document itself."""
    root = doc.root
    if isinstance(root, MappingNode) and yn.scalar_text(yn.get(root, "kind")) == "List":
        items = yn.get(root, "items")
        return [yn.YamlDoc(doc.src, item, doc.span) for item in items.value
                if isinstance(item, MappingNode)] if isinstance(items, SequenceNode) else []
    return [doc]


def embedded_launches(text: str, start: int, end: int, chunk: str,
                      marks: "templates.Marks | None" = None, when: str = "") -> list[Launch]:
    """The launches of YAML written inside another file (a manifest a shell
    heredoc writes), read at their place: ``chunk`` is ``text[start:end]``
    as the YAML reader should see it (same length; expansions masked as
    ``templates`` masks template actions, with ``marks`` saying where, so
    the words they make are inexact).  A vLLM ``--config`` file's keys are
    not a launch here: the launch naming it reads it."""
    got = _read_uncached(text[:start] + chunk + text[end:], chunk, start, end, 0, "heredoc.yaml")
    launches = [l for l in got.launches if l.form is not Form.VLLM_CONFIG]
    if marks is not None:
        for launch in launches:
            templates.finish(launch, marks, text, when=when)
    return launches


# -- moving a document's results by ``d`` characters --------------------------------


def _span(s: Span | None, d: int) -> Span | None:
    return None if s is None else s.shifted(d)


# Copies with their places moved (``structs.copier``): every launch of a
# document below an edit, or of a document seen before, is copied with its
# words on every keystroke (a Kubernetes List of 300 pods: ~120,000 copies).
_hint_at = copier(ReleaseHint, "span")
_problem_at = copier(ParseProblem, "span")
_word_at = copier(Word, "span", "base", "offsets", "node")
_value_at = copier(yn.YamlValue, "span", "key_span", "children")
_env_at = copier(EnvVar, "span")
_container_at = copier(yn.Container, "span", "items", "dashes")
_build_at = copier(ImageBuild, "span", "command")
_input_at = copier(Input, "uses", "guard")
_launch_at = copier(Launch, "entry_span", "args", "span", "env", "release_hints", "problems", "opaque",
                     "container", "build", "inputs", "written_config", "deployment")


def _problem(p: ParseProblem, d: int) -> ParseProblem:
    s = p.span
    return _problem_at(p, s.shifted(d))


def _hint(h: ReleaseHint, d: int) -> ReleaseHint:
    s = h.span
    return _hint_at(h, s.shifted(d))


def _word(w: Word, d: int) -> Word:
    return _word_at(
        w,
        _span(w.span, d),
        w.base + d if w.offsets is None else -1,
        None if w.offsets is None else [o + d for o in w.offsets],
        _value(w.node, d) if isinstance(w.node, yn.YamlValue) else w.node,
    )


def _value(v: yn.YamlValue, d: int) -> yn.YamlValue:
    return _value_at(
        v,
        _span(v.span, d),
        _span(v.key_span, d),
        None if v.children is None else [_value(c, d) for c in v.children],
    )


def _hints(hints_: list[ReleaseHint], d: int, shared: tuple | None) -> list[ReleaseHint]:
    """``hints_`` moved ``d``, those of the document taken from ``shared``
    (the document's hints, and each one moved)."""
    if shared is None:
        return [_hint(h, d) for h in hints_]
    doc_hints, moved = shared
    if len(hints_) == len(doc_hints) and all(map(is_, hints_, doc_hints)):
        return list(moved)  # (a pod's image: its document's only hint, and its launch's)
    by_id = dict(zip(map(id, doc_hints), moved))
    return [by_id.get(id(h)) or _hint(h, d) for h in hints_]


def _share_hints(launches: list[Launch], doc_hints: list[ReleaseHint]) -> None:
    """Make each launch's release hints that its document's scan found too
    (an image tag is both) the same objects, so that a move of the
    document moves each once."""
    def key(h: ReleaseHint) -> tuple:
        return h.version, h.span.start, h.span.end, h.kind, h.text

    same = {key(h): h for h in doc_hints}
    for launch in launches:
        if launch.release_hints:
            launch.release_hints = [same.get(key(h), h) for h in launch.release_hints]


def _launch(l: Launch, d: int, shared: tuple | None = None) -> Launch:
    c = l.container
    if isinstance(c, yn.Container):
        c = _container_at(c, _span(c.span, d), [_span(i, d) for i in c.items], [x + d for x in c.dashes])
    b = l.build
    return _launch_at(
        l,
        _span(l.entry_span, d),
        [_word(w, d) for w in l.args],
        _span(l.span, d),
        {k: _env_at(v, _span(v.span, d)) for k, v in l.env.items()},
        _hints(l.release_hints, d, shared),
        [_problem(p, d) for p in l.problems],
        [_word(w, d) for w in l.opaque],
        c,
        None if b is None else _build_at(b, b.span.shifted(d), [_word(w, d) for w in b.command]),
        [_input_at(i, [u.shifted(d) for u in i.uses], _span(i.guard, d)) for i in l.inputs],
        None if l.written_config is None else _launch(l.written_config, d, shared),
        None if l.deployment is None else l.deployment.moved(lambda s: s.shifted(d)),
    )


def _moved(origin: Launch, d: int, shared: tuple | None = None) -> Launch:
    """``origin`` moved with its whole document, shifted only when read.

    Moves of a launch nobody has read since add up: it keeps the launch it
    was last read as and the total distance, not the versions between."""
    origin.moved_from = None  # used by the last lint; see parse.shell.incremental._moved
    # (``MovedLaunch.unread``, without a call: on every launch below an edit.)
    pending = origin.pending if isinstance(origin, MovedLaunch) and getattr(origin, "_make", None) is not None else None
    root, total = (pending[0], pending[1] + d) if pending is not None else (origin, d)
    s, e = origin.span, origin.entry_span
    return MovedLaunch.of(
        origin, s.shifted(d), e.shifted(d),
        _hints(origin.release_hints, d, shared) if origin.release_hints else [],
        _launch, (root, total),
    )


def _report_syntax(path: str, text: str, forms: list[Form], docs: list[_Doc]) -> bool:
    """Whether the file's syntax errors are reported: not in a Helm template
    (``{{``), and only where the file shows a sign of vLLM."""
    # Asked document by document (and remembered with each), so that typing
    # in a long file with a syntax error does not scan all of it each time:
    # neither "{{" nor "vllm" can cross a "\n---" line.
    seen = [d.marks(text) for d in docs]
    if any(braces for braces, _ in seen):
        return False
    return bool(forms) or any(v for _, v in seen) or "vllm" in (path + text[:3]).lower()


def _internal(exc: Exception, span: Span) -> ParseProblem:
    return ParseProblem(
        problems.PARSE_ERROR,
        f"servelint could not read this YAML document ({type(exc).__name__}: {exc})",
        span,
        "warning",
    )
