"""Source text: spans, lines, and LSP positions.

Everything inside servelint locates text by *offsets into the Python string of
the whole document* (code points).  Only at the edges (LSP, JSON output) are
offsets turned into LSP positions: 0-based line and a column counted in the
client's position encoding (UTF-16 unless negotiated otherwise).

Lines follow the LSP definition: they end at ``\\n``, ``\\r\\n`` or ``\\r``.
(``str.splitlines`` would also split at form feeds and U+2028, which editors
do not.)

On a line of pure ASCII a code point is one code unit in every encoding, so
the column is the code-point count.  Any other line is measured with pygls'
``PositionCodec``, imported lazily: ``lsprotocol.types`` costs half a second
to import, which the CLI's cold start cannot afford on files that never need
it.
"""

from __future__ import annotations

import re
import weakref
from bisect import bisect_right
from itertools import accumulate
from typing import Iterator, NamedTuple
from .structs import dataclass

_LINE_BREAK = re.compile(r"\r\n|\n|\r")


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """A half-open range ``[start, end)`` of document offsets (code points)."""

    start: int
    end: int

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError(f"span ends before it starts: {self.start}..{self.end}")

    def __len__(self) -> int:
        return self.end - self.start

    def contains(self, offset: int) -> bool:
        return self.start <= offset <= self.end

    def overlaps(self, other: "Span") -> bool:
        return self.start < other.end and other.start < self.end or self == other

    def cover(self, other: "Span") -> "Span":
        return Span(min(self.start, other.start), max(self.end, other.end))

    def shifted(self, delta: int) -> "Span":
        """This span ``delta`` characters further.  Built without the frozen
        dataclass's checked __init__ (a shift keeps a span valid): every
        place below an edit is shifted on each keystroke."""
        moved = _new_span(Span)
        _set_start(moved, self.start + delta)
        _set_end(moved, self.end + delta)
        return moved


_new_span = object.__new__
_set_start, _set_end = Span.__dict__["start"].__set__, Span.__dict__["end"].__set__


_codecs: dict[str, object] = {}


def _codec(encoding: str):
    codec = _codecs.get(encoding)
    if codec is None:
        from pygls.workspace.position_codec import PositionCodec

        codec = _codecs[encoding] = PositionCodec(encoding)
    return codec


def _line_starts(text: str) -> list[int]:
    """Offsets where each line of ``text`` starts."""
    if "\r" in text:
        starts = [0]
        starts.extend(m.end() for m in _LINE_BREAK.finditer(text))
        return starts
    if not text:
        return [0]
    # "\n" only (nearly every file): the C-level split is ~5x faster.
    starts = [0, *accumulate(len(line) + 1 for line in text.split("\n"))]
    starts.pop()
    return starts


# Edits a line index is derived through before it is rebuilt from its text:
# each lookup walks the chain (a keystroke's conversion to LSP positions
# asks a few dozen), each rebuild reads the whole text.  A longer file
# keeps a longer chain: a rebuild costs ~0.2 ms per 1,000 lines.
_MIN_DERIVED = 8
_LINES_PER_DERIVED = 1_000


class _Lines:
    """A line index: the starts of the lines, or another index and one edit.

    An editor sends one keystroke at a time: the index after it is the one
    before it with the starts inside the edit replaced and those after it
    moved, found through the chain when asked, so a keystroke costs no
    pass over the whole text."""

    __slots__ = ("starts", "parent", "at", "old_end", "new_end", "region", "kept", "removed", "count", "depth")

    def __init__(self, starts: list[int] | None, parent: "_Lines | None" = None, at: int = 0, old_end: int = 0,
                 new_end: int = 0, region: list[int] | None = None) -> None:
        self.starts = starts
        self.parent, self.at, self.old_end, self.new_end = parent, at, old_end, new_end
        self.region = region or []
        if parent is None:
            self.kept = self.removed = self.depth = 0
            self.count = len(starts)
        else:
            # Lines starting at or before ``at`` are as they were; those that
            # started inside the old text of the edit are gone.
            self.kept = parent.line_of(at) + 1
            self.removed = parent.line_of(old_end) + 1 - self.kept
            self.count = parent.count - self.removed + len(self.region)
            self.depth = parent.depth + 1

    def flattened(self) -> list[int] | None:
        """The starts of the lines, from the chain, when no edit in it wrote
        or deleted a line break (each moved the lines after it); else None."""
        moves = []
        node = self
        while node.starts is None:
            if node.removed or node.region:
                return None
            moves.append((node.kept, node.new_end - node.old_end))
            node = node.parent
        starts = node.starts
        if not moves:
            return starts
        moves.sort()
        out = starts[: moves[0][0]]
        add = 0
        for i, (kept, by) in enumerate(moves):
            add += by
            end = moves[i + 1][0] if i + 1 < len(moves) else len(starts)
            if end > kept:
                out.extend(map(add.__add__, starts[kept:end]))
        return out

    # Both lookups walk the chain in a loop, not by recursion: a Python call
    # per derived index was most of a keystroke's conversion to LSP positions.
    def line_of(self, offset: int) -> int:
        node, add = self, 0
        while node.starts is None:
            if offset > node.at:
                if offset <= node.new_end:
                    return add + node.kept - 1 + bisect_right(node.region, offset)
                offset += node.old_end - node.new_end
                add += len(node.region) - node.removed
            node = node.parent
        return add + bisect_right(node.starts, offset) - 1

    def start(self, line: int) -> int:
        node, add = self, 0
        while node.starts is None:
            if line >= node.kept:
                inserted = len(node.region)
                if line < node.kept + inserted:
                    return add + node.region[line - node.kept]
                line += node.removed - inserted
                add += node.new_end - node.old_end
            node = node.parent
        return add + node.starts[line]


class SourceText:
    """The text of one document with a line index.

    ``encoding`` is the LSP position encoding: ``"utf-16"`` (the LSP default),
    ``"utf-8"`` or ``"utf-32"``.  ``edited``: (the previous text's
    ``SourceText``, start, old end, new end) of the one region an edit
    changed, so that the line index is derived from the previous one instead
    of read from the whole text.
    """

    __slots__ = ("text", "encoding", "_index", "_ascii", "_cr", "_absent", "_edit", "__weakref__")

    def __init__(self, text: str, encoding: str = "utf-16", edited: "tuple | None" = None) -> None:
        self.text = text
        self.encoding = encoding
        self._index: _Lines | None = None  # built on first use
        self._ascii: bool | None = None  # whether the whole text is ASCII (found on first use)
        self._cr: bool | None = None  # whether it has a "\r" (a lone one or in "\r\n")
        self._absent: tuple[str, ...] = ()  # words ``mentions`` found nowhere in the text
        self._edit: tuple | None = None  # (a weak reference to the previous text's SourceText, at, old end, new end)
        if edited is not None:
            prev, at, old_end, new_end = edited
            self._edit = (weakref.ref(prev), at, old_end, new_end)
            piece = text[at:new_end]
            if prev._absent:
                # A word absent before the edit can only appear across what
                # it wrote (or where it joined two pieces).
                self._absent = tuple(w for w in prev._absent
                                     if w not in text[max(0, at - len(w) + 1) : new_end + len(w) - 1])
            if prev._cr is False and "\r" not in piece:
                self._cr = False
                parent = prev._lines()
                if parent.depth < max(_MIN_DERIVED, parent.count // _LINES_PER_DERIVED):
                    region = [at + k + 1 for k, ch in enumerate(piece) if ch == "\n"] if "\n" in piece else []
                    self._index = _Lines(None, parent, at, old_end, new_end, region)
                elif "\n" not in piece:
                    # The chain is long enough to flatten.  Typing within
                    # lines (no line break written or deleted) only moves
                    # line starts: they are added up from the chain, a pass
                    # over the starts instead of one over the text.
                    flat = _Lines(None, parent, at, old_end, new_end).flattened()
                    if flat is not None:
                        self._index = _Lines(flat)
            if prev._ascii is not None and piece.isascii():
                self._ascii = prev._ascii

    def edit_since(self, prev: "SourceText") -> tuple[int, int, int] | None:
        """(start, old end, new end) of the region ``edited`` named when this
        text was made from ``prev``'s: the texts are the same outside it (the
        engine's is ``edit_range``'s, the smallest), found without comparing
        them again.  None for any other ``prev``."""
        edit = self._edit
        if edit is not None and edit[0]() is prev:
            return edit[1], edit[2], edit[3]
        return None

    def mentions(self, word: str) -> bool:
        """Whether ``word`` is anywhere in the text.  A word found absent is
        remembered, and the text after an edit looks for it only around what
        the edit wrote: a keystroke does not search the whole document."""
        if word in self._absent:
            return False
        if word in self.text:
            return True
        self._absent += (word,)
        return False

    @property
    def has_cr(self) -> bool:
        """Whether the text holds a carriage return (its line index is then
        read from the whole text, never derived through an edit)."""
        if self._cr is None:
            self._cr = "\r" in self.text
        return self._cr

    def with_encoding(self, encoding: str) -> "SourceText":
        """The same text measured in another position encoding, sharing the
        line index (a client on UTF-8 or UTF-32 must not cost a rebuild of
        it per keystroke)."""
        if encoding == self.encoding:
            return self
        other = SourceText(self.text, encoding)
        other._index, other._ascii, other._cr = self._lines(), self._ascii, self._cr
        return other

    def _lines(self) -> _Lines:
        index = self._index
        if index is None:
            if self._cr is None:
                self._cr = "\r" in self.text
            index = self._index = _Lines(_line_starts(self.text))
        return index

    # -- lines ---------------------------------------------------------------

    @property
    def line_count(self) -> int:
        return self._lines().count

    def line_start(self, line: int) -> int:
        return self._lines().start(line)

    def line_end(self, line: int) -> int:
        """Offset of the end of ``line``'s content (before its line break)."""
        index = self._lines()
        if line + 1 < index.count:
            end = index.start(line + 1)
            if self.text.startswith("\r\n", end - 2) and end - 2 >= index.start(line):
                return end - 2
            return end - 1
        return len(self.text)

    def line_text(self, line: int) -> str:
        return self.text[self.line_start(line) : self.line_end(line)]

    def line_of(self, offset: int) -> int:
        return self._lines().line_of(offset)

    def lines(self) -> Iterator[str]:
        for i in range(self.line_count):
            yield self.line_text(i)

    # -- positions -----------------------------------------------------------

    def position(self, offset: int) -> tuple[int, int]:
        """(line, character) of ``offset`` in the client's encoding."""
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        start = self.line_start(line)
        if self.encoding == "utf-32" or self._all_ascii():
            # No slice: thousands of findings on one 100 KB line would copy
            # the line for each.
            return line, offset - start
        prefix = self.text[start:offset]
        if prefix.isascii():
            return line, len(prefix)
        return line, _codec(self.encoding).client_num_units(prefix)

    def _all_ascii(self) -> bool:
        if self._ascii is None:
            self._ascii = self.text.isascii()
        return self._ascii

    def offset_at(self, line: int, character: int) -> int:
        """Document offset of an LSP position (clamped to the document)."""
        if line < 0:
            return 0
        if line >= self.line_count:
            return len(self.text)
        start = self.line_start(line)
        if self._all_ascii():
            return start + max(0, min(character, self.line_end(line) - start))
        content = self.text[start : self.line_end(line)]
        if content.isascii() or self.encoding == "utf-32":
            return start + max(0, min(character, len(content)))
        codec = _codec(self.encoding)
        units = 0
        for i, ch in enumerate(content):
            if units >= character:
                return start + i
            units += codec.client_num_units(ch)
        return start + len(content)

    def range(self, span: Span) -> dict:
        """An LSP ``Range`` as a plain dict (the JSON output's shape)."""
        sl, sc = self.position(span.start)
        el, ec = self.position(span.end)
        return {
            "start": {"line": sl, "character": sc},
            "end": {"line": el, "character": ec},
        }


def byte_to_char_offsets(text: str) -> "ByteMap":
    return ByteMap(text)


class ByteMap:
    """Converts UTF-8 byte offsets (tree-sitter's unit) to code-point offsets."""

    __slots__ = ("_ascii", "_table")

    def __init__(self, text: str) -> None:
        self._ascii = text.isascii()
        self._table: list[int] | None = None
        if not self._ascii:
            table = []
            for i, ch in enumerate(text):
                table.extend([i] * len(ch.encode("utf-8", "surrogatepass")))
            table.append(len(text))
            self._table = table

    def __call__(self, byte_offset: int) -> int:
        if self._ascii:
            return byte_offset
        table = self._table
        assert table is not None
        if byte_offset >= len(table):
            return table[-1]
        return table[byte_offset]


def edit_range(old: str, new: str) -> tuple[int, int, int]:
    """(start, old_end, new_end) of the one region where ``old`` and ``new``
    differ: ``new`` is ``old`` with ``old[start:old_end]`` replaced by
    ``new[start:new_end]``.  An editor's keystroke is one such region."""
    n = min(len(old), len(new))
    # Galloping then halving block comparisons: a handful of C-level slice
    # compares instead of a Python loop over the characters (this runs on
    # every keystroke over the whole document).
    p = _common(lambda a, b: old[a:b] == new[a:b], n)
    lo, ln = len(old), len(new)
    s = _common(lambda a, b: old[lo - b : lo - a] == new[ln - b : ln - a], n - p)
    return p, lo - s, ln - s


class KnownEdit(NamedTuple):
    """An edit a caller already found (``edit_range(old, new)``), passed
    down so that the parsers of a keystroke do not compare the whole
    document again (~0.08 ms at 2,000 lines, ~0.6 ms at 100,000)."""

    old: str
    new: str
    start: int
    old_end: int
    new_end: int


def edit_between(old: str, new: str, known: "KnownEdit | None" = None) -> tuple[int, int, int]:
    """``edit_range(old, new)``, taken from ``known`` when it was found
    between these very strings."""
    if known is not None and known.old is old and known.new is new:
        return known.start, known.old_end, known.new_end
    return edit_range(old, new)


def _common(same, limit: int) -> int:
    """The largest k <= limit with same(0, k), given same(a, b) compares [a, b)."""
    k, step = 0, 64
    while k + step <= limit and same(k, k + step):
        k += step
        step *= 2
    while step > 1:
        step //= 2
        if k + step <= limit and same(k, k + step):
            k += step
    return k
