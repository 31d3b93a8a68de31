"""The LSP form of a document's diagnostics: encoded once, kept with each
launch's result, and moved (not rebuilt) when an edit leaves the launch alone.

A keystroke changes one launch's findings; the other launches keep theirs,
moved if the launch moved.  Their LSP form is kept with the launch's result
(``LaunchResult.lsp``) as JSON text with its numbers cut out: the document
version (a new one every keystroke, in ``data`` and in each fix's edits)
and the line and column of every place it names.  A keystroke renders each
kept diagnostic by joining its text around the version; one whose places
went to other lines is joined again around its new line numbers; only the
launches the edit changed are converted (``convert.to_lsp``, as before).

The JSON goes to the client as it is (``EncodedList``, spliced into the message
by ``pygls_compat.Splice``).  Handlers that need lsprotocol objects (code
actions, a workspace report) decode them from it on first use.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import operator
import os
import re
import time
from collections.abc import Sequence
from typing import Any, Callable

from ..structs import replace
from ..diagnostics import Diagnostic, Related
from ..engine.reuse import places
from ..text import SourceText, edit_range
from . import convert
from .convert import EncodedList

# JSON without the spaces json.dumps puts after "," and ":" by default: a
# sixth of what a diagnostic weighs, written and read again on every keystroke.
COMPACT = (",", ":")

# The numbers cut out of the JSON are written as these stand-ins first
# (inside LSP's uinteger range, which lsprotocol checks for positions): the
# version, then the line and column of place k at _VERSION + 1 + 2k (+1).
_VERSION = 2_000_000_000
# (No look-around: a longer number holding one is found too, and the count
# of what is found then tells the form to be written out whole.)
_STAND_IN = re.compile(r"(20\d{8})")


class _Holes:
    """The document's ``SourceText`` as ``convert.to_lsp`` reads it: each
    position it asks for comes out as stand-in numbers, and is noted."""

    __slots__ = ("src", "positions")

    def __init__(self, src: SourceText) -> None:
        self.src = src
        self.positions: list[tuple[int, int]] = []

    def position(self, offset: int) -> tuple[int, int]:
        k = len(self.positions)
        self.positions.append(self.src.position(offset))
        return _VERSION + 1 + 2 * k, _VERSION + 2 + 2 * k

    def range(self, span) -> dict:
        sl, sc = self.position(span.start)
        el, ec = self.position(span.end)
        return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}


class Form:
    """One diagnostic's LSP form: its JSON text around the numbers that
    move (``chunks`` and ``holes``: -1 the version, 2k the line of place k,
    2k+1 its column), the places' positions when it was made, and the
    diagnostic's own range (for finding it again: ``Published.index``).

    ``movable``: every place and edit is in the document (a place in another
    file, or another open document's version, is written into the text:
    such a form is made again each time)."""

    __slots__ = ("chunks", "holes", "positions", "movable", "code", "message", "range_place", "_baked")

    def __init__(self, chunks: list[str], holes: list[int], positions: list[tuple[int, int]], movable: bool,
                 code: Any, message: str, range_place: int = 0) -> None:
        self.chunks, self.holes, self.positions, self.movable = chunks, holes, positions, movable
        self.code, self.message = code, message
        self.range_place = range_place  # the place whose position starts the diagnostic's range
        self._baked: tuple[int, list[str]] | None = None

    @classmethod
    def make(cls, d: Diagnostic, path: str, src: SourceText, source_of: convert.SourceOf,
             version_of: convert.VersionOf, unstructure: Callable, origin: str | None = None) -> "Form":
        holes = _Holes(src)
        foreign = [False]
        versions = [0]

        def source(p: str):
            if p == path:
                return holes
            foreign[0] = True
            return source_of(p)

        def version(p: str):
            if p == path:
                versions[0] += 1
                return _VERSION
            foreign[0] = True
            return version_of(p)

        lsp = convert.to_lsp(d, source, version)
        if origin is not None:
            lsp.data["origin"] = origin
        text = json.dumps(unstructure(lsp), separators=COMPACT)
        parts = _STAND_IN.split(text)
        numbers = [int(n) - _VERSION for n in parts[1::2]]
        # Each stand-in exactly as often as it was handed out (the version
        # once per use, each place's line and column once).
        expected = [0] * versions[0] + list(range(1, 1 + 2 * len(holes.positions)))
        if sorted(numbers) != expected:
            # A message or a fix holds a number that looks like a stand-in:
            # this form is written out whole, for this version only.
            real = convert.to_lsp(d, lambda p: src if p == path else source_of(p), version_of)
            if origin is not None:
                real.data["origin"] = origin
            return cls([json.dumps(unstructure(real), separators=COMPACT)], [], [], False, lsp.code, lsp.message)
        hole_list = [n - 1 for n in numbers]  # -1: the version; 2k / 2k+1: place k
        return cls(parts[0::2], hole_list, holes.positions, not foreign[0], lsp.code, lsp.message,
                   (lsp.range.start.line - _VERSION - 1) // 2)

    def baked(self, move: "Move") -> list[str]:
        """The text split at the version, with every place moved by ``move``."""
        got = self._baked
        if got is not None and got[0] == move:
            return got[1]
        out: list[str] = []
        cur = [self.chunks[0]]
        positions = self.positions
        for hole, chunk in zip(self.holes, self.chunks[1:]):
            if hole < 0:
                out.append("".join(cur))
                cur = [chunk]
                continue
            line, char = _moved(positions[hole >> 1], move)
            cur.append(str(char if hole & 1 else line))
            cur.append(chunk)
        out.append("".join(cur))
        self._baked = (move, out)
        return out

    def render(self, version: str, move: "Move") -> str:
        return version.join(self.baked(move))


# How a form's places moved since it was made: (lines added to every line,
# the line whose columns move, columns added there).
Move = tuple[int, int, int]
STAY: Move = (0, -1, 0)


def _moved(position: tuple[int, int], move: Move) -> tuple[int, int]:
    line, char = position
    return line + move[0], char + move[2] if line == move[1] else char


class LaunchForms:
    """The forms of one launch's diagnostics (``LaunchResult.lsp``), in the
    order of its ``diagnostics``, as placed in ``source``: the launch is at
    ``start``..``end`` there, and starts at ``line``, ``col``; ``lo`` and
    ``hi`` are the first and last offset any of its diagnostics names,
    ``top`` the first line; ``move`` is how the forms' own positions moved."""

    __slots__ = ("forms", "source", "start", "end", "line", "col", "lo", "hi", "top", "move")

    def __init__(self, forms: list[Form], source: SourceText, start: int, end: int, line: int, col: int,
                 lo: int, hi: int, top: int, move: Move = STAY) -> None:
        self.forms, self.source, self.start, self.end, self.line, self.col = forms, source, start, end, line, col
        self.lo, self.hi, self.top, self.move = lo, hi, top, move

    @property
    def inside(self) -> bool:
        """Whether every place its diagnostics name is inside the launch."""
        return self.start <= self.lo and self.hi <= self.end

    # ``at`` and ``below`` update the forms in place: every launch of the
    # file takes one of them on each keystroke, and only the next
    # conversion of the same document reads a launch's forms (``source``
    # tells it which text they are placed in).

    def at(self, source: SourceText) -> "LaunchForms":
        """The same, in ``source`` (the edit is after every place)."""
        self.source = source
        return self

    def below(self, source: SourceText, by: int, lines: int) -> "LaunchForms":
        """Moved ``by`` characters and ``lines`` lines, columns kept (the
        edit is on an earlier line than every place)."""
        self.source = source
        self.start += by
        self.end += by
        self.lo += by
        self.hi += by
        if lines:
            m = self.move
            self.line += lines
            self.top += lines
            self.move = (m[0] + lines, m[1], m[2])
        return self

    def relocated(self, source: SourceText, start: int, line: int, col: int) -> "LaunchForms":
        """The same launch text now at ``start`` (``line``, ``col``), every
        place inside it: lines move with it, and columns on its first line."""
        by, lines, cols = start - self.start, line - self.line, col - self.col
        m = self.move
        first = self.line - m[0]  # the launch's first line in the forms' own positions
        if m[2] and m[1] != first:
            raise AssertionError("a launch's forms move columns on its first line only")
        return LaunchForms(self.forms, source, start, self.end + by, line, col, self.lo + by, self.hi + by,
                           self.top + lines, (m[0] + lines, first, m[2] + cols))


def _whole_lines(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` starts and ends clear of a line break
    that joins it to its neighbours (a "\\r\\n" across either end): the
    positions inside it then follow from its start's alone."""
    return not text.startswith("\n", start) and not text.startswith("\r", end - 1)


def _reach(diagnostics: list[Diagnostic], src: SourceText) -> tuple[int, int, int]:
    """(first offset, last offset, first line) of every place the diagnostics name."""
    spans = [span for d in diagnostics for _, span in places(d)]
    if not spans:
        return 0, 0, 0
    lo = min(s.start for s in spans)
    return lo, max(s.end for s in spans), src.line_of(lo)


_PROCESS = f"{os.getpid():x}.{time.time_ns():x}"
_ids = itertools.count(1)


class Published(Sequence):
    """A document's diagnostics for one version of it: the JSON each one is
    sent as (``json``, in order), the engine diagnostic it was made from
    (``origins``), and, decoded on first use, lsprotocol objects (this is a
    sequence of them) for the handlers that read them."""

    def __init__(self, texts: list[str], origins: list[Diagnostic] | Callable[[], list[Diagnostic]],
                 items: list[tuple], result_id: str, structure: Callable) -> None:
        self.json = texts
        self._origins = origins  # or what makes them when first asked
        self._items = items  # (JSON, form, its move) of each, for ``index``
        self.result_id = result_id
        self._structure = structure
        self._objects: list | None = None

    @property
    def origins(self) -> list[Diagnostic]:
        got = self._origins
        if callable(got):
            got = self._origins = got()
        return got

    def __len__(self) -> int:
        return len(self.json)

    def __getitem__(self, i):
        return self._decoded()[i]

    def __iter__(self):
        return iter(self._decoded())

    def _decoded(self) -> list:
        if self._objects is None:
            from lsprotocol import types

            self._objects = [self._structure(json.loads(t), types.Diagnostic) for t in self.json]
        return self._objects

    def encoded(self) -> EncodedList:
        """The diagnostics to put in a message: sent as the JSON they are."""
        return EncodedList(self.json)

    def data(self, i: int) -> Any:
        """The ``data`` of the i-th diagnostic."""
        if self._objects is not None:
            return self._objects[i].data
        return json.loads(self.json[i]).get("data")

    def index(self, d) -> int | None:
        """Which of these has ``d``'s range, code and message (an lsprotocol
        diagnostic a client sent back), without decoding them all."""
        rng = d.range
        want = (rng.start.line, rng.start.character, rng.end.line, rng.end.character)
        for i, (_, form, move) in enumerate(self._items):
            if form.code != d.code or form.message != d.message:
                continue
            got = self._decoded_range(i, form, move)
            if got == want:
                return i
        return None

    def _decoded_range(self, i: int, form: Form, move: Move) -> tuple[int, int, int, int]:
        if not form.positions:
            r = json.loads(self.json[i])["range"]
            return r["start"]["line"], r["start"]["character"], r["end"]["line"], r["end"]["character"]
        k = form.range_place
        (sl, sc), (el, ec) = _moved(form.positions[k], move), _moved(form.positions[k + 1], move)
        return sl, sc, el, ec


def new_result_id() -> str:
    """An id of this server process's own (one from another process, a
    client's previousResultId after a restart, never matches)."""
    return f"{_PROCESS}-{next(_ids)}"


def closed_result_id(texts: list[str]) -> str:
    """A closed file's report id (a workspace scan): a hash of what it says,
    the same in the next scan of the same file."""
    return hashlib.sha1("\n".join(texts).encode("utf-8", "surrogatepass")).hexdigest()[:16]


class DocumentForms:
    """One document's conversion to LSP, from one lint to the next.

    Each launch's forms are kept with its result (``LaunchResult.lsp``) as
    placed in the text this converted last; a launch the engine carried
    over keeps them when the edit is wholly after every place they name, or
    wholly before them and on an earlier line (they then move by the lines
    the edit added or removed).  Any other launch is converted again."""

    def __init__(self, unstructure: Callable, structure: Callable) -> None:
        self._unstructure = unstructure
        self._structure = structure
        self._source: SourceText | None = None  # the engine's text the last conversion placed forms in
        self._encoding: str | None = None
        self._texts: list[str] | None = None
        self._id = ""

    def convert(self, result, path: str, encoding: str, source_of: convert.SourceOf,
                version_of: convert.VersionOf, *, closed: bool = False) -> Published:
        """``result``'s diagnostics of ``path``; those found in a --config
        file it reads are shown on the word naming that file, pointing at the
        place.  ``closed``: a file that is not open (no version; its id is a
        hash of what it says)."""
        src = source_of(path)
        base = result.source
        prev = self._source if self._encoding == encoding and not closed else None
        unstructure = self._unstructure
        a = b = c = lines = edit_line = 0
        lf = False
        if prev is not None:
            old, new = prev.text, base.text
            a, b, c = (len(new),) * 3 if old is new else (base.edit_since(prev) or edit_range(old, new))
            # Where lines hold only "\n", a place's position depends on the
            # text before it alone: lines after the edit's last one keep
            # their columns, and move by the lines the edit added.
            lf = not prev.has_cr and not base.has_cr
            if lf:
                lines = new.count("\n", a, c) - old.count("\n", a, b)
                edit_line = prev.line_of(b)

        def make(d: Diagnostic, origin: str | None = None) -> Form:
            return Form.make(d, path, src, source_of, version_of, unstructure, origin)

        version = json.dumps(None if closed else version_of(path))
        # Each launch's diagnostics, in the launches' order, and (its JSON
        # for this version, its form, the form's move) of each.
        # (A launch's diagnostics are read only to convert them, or to
        # place them among others: ``count`` does not shift a moved one's.)
        shown: list = []  # the launches whose forms are shown, in order
        flat_items: list[tuple[str, Form, Move]] = []
        foreign = False
        for lr in result.launches:
            n = lr.count
            if not n:
                continue
            entry = lr.lsp
            kept = None
            if entry is not None and prev is not None and entry.source is prev and len(entry.forms) == n:
                start = lr.launch.span.start
                end = lr.launch.span.end
                if start == entry.start and entry.hi < a:
                    kept = entry.at(base)  # wholly before the edit
                elif lf and start == entry.start + c - b and entry.lo >= b and entry.top > edit_line:
                    kept = entry.below(base, c - b, lines)
                elif (entry.inside and end - start == entry.end - entry.start
                      and _whole_lines(base.text, start, end) and _whole_lines(prev.text, entry.start, entry.end)):
                    # The same launch text elsewhere (the engine found it
                    # by its words): its places move with its start.
                    line, col = src.position(start)
                    kept = entry.relocated(base, start, line, col)
            if kept is None:
                diags = lr.diagnostics
                if any(d.path != path for d in diags):
                    foreign = True
                    lr.lsp = None
                    continue  # shown where the launch names the file, below
                forms = [make(d) for d in diags]
                lo, hi, top = _reach(diags, base)
                span = lr.launch.span
                line, col = src.position(span.start)
                kept = LaunchForms(forms, base, span.start, span.end, line, col, lo, hi, top)
                lr.lsp = kept if all(f.movable for f in forms) else None
            else:
                lr.lsp = kept
            move = kept.move
            shown.append(lr)
            for form in kept.forms:
                baked = form._baked  # (``Form.render``, inlined: this runs for every diagnostic)
                text = version.join(baked[1] if baked is not None and baked[0] == move else form.baked(move))
                flat_items.append((text, form, move))

        if not foreign and result.in_launch_order:
            # The document's diagnostics are its launches', in their order
            # (one finding per launch, launches in text order: most files),
            # as the engine knows without reading them.
            texts = [got[0] for got in flat_items]
            return self._published(texts, lambda: result.diagnostics, flat_items, closed, base, encoding)
        flat = [d for lr in shown for d in lr.diagnostics]
        if not foreign and len(flat) == len(result.diagnostics) and all(map(operator.is_, flat, result.diagnostics)):
            texts = [got[0] for got in flat_items]
            return self._published(texts, flat, flat_items, closed, base, encoding)
        placed = {id(d): got for d, got in zip(flat, flat_items)}

        home: dict[int, Any] = {}
        # Only launches with findings in another file need their anchor: a
        # launch's invocation is read lazily, and reading all of them on
        # every keystroke would undo the engine's reuse.
        for lr in result.launches if foreign else ():
            if not any(d.path != path for d in lr.diagnostics):
                continue
            ref = lr.invocation.config_path if lr.invocation is not None else None
            anchor = ref.span if ref is not None and ref.path is None else lr.launch.entry_span
            for d in lr.diagnostics:
                home[id(d)] = anchor

        items: list[tuple[str, Form, int]] = []
        origins: list[Diagnostic] = []
        for d in result.diagnostics:
            if d.path == path:
                got = placed.get(id(d))
                if got is None:
                    form = make(d)
                    got = (form.render(version, STAY), form, STAY)
            else:
                anchor = home.get(id(d))
                if anchor is None:
                    continue
                there = source_of(d.path)
                line, col = there.position(d.span.start)
                moved = replace(
                    d,
                    path=path,
                    span=anchor,
                    message=f"{os.path.basename(d.path)}:{line + 1}:{col + 1}: {d.message}",
                    related=[Related(d.path, d.span, d.message)] + list(d.related),
                )
                form = make(moved, convert.uri_of(d.path))
                got = (form.render(version, STAY), form, STAY)
            items.append(got)
            origins.append(d)
        texts = [got[0] for got in items]
        return self._published(texts, origins, items, closed, base, encoding)

    def _published(self, texts: list[str], origins: "list[Diagnostic] | Callable[[], list[Diagnostic]]",
                   items: list[tuple], closed: bool, base: SourceText, encoding: str) -> Published:
        if closed:
            rid = closed_result_id(texts)
        else:
            if self._texts is None or texts != self._texts:
                self._id = new_result_id()
            self._texts, self._source, self._encoding = texts, base, encoding
            rid = self._id
        return Published(texts, origins, items, rid, self._structure)
