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
from bisect import bisect_right
from itertools import accumulate
from dataclasses import dataclass
from typing import Iterator

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


_codecs: dict[str, object] = {}


def _codec(encoding: str):
    codec = _codecs.get(encoding)
    if codec is None:
        from pygls.workspace.position_codec import PositionCodec

        codec = _codecs[encoding] = PositionCodec(encoding)
    return codec


class SourceText:
    """The text of one document with a line index.

    ``encoding`` is the LSP position encoding: ``"utf-16"`` (the LSP default),
    ``"utf-8"`` or ``"utf-32"``.
    """

    __slots__ = ("text", "encoding", "_starts", "_ascii")

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.encoding = encoding
        if "\r" in text:
            starts = [0]
            starts.extend(m.end() for m in _LINE_BREAK.finditer(text))
        else:
            # "\n" only (nearly every file): the C-level split is ~5x faster.
            starts = [0, *accumulate(len(line) for line in text.split("\n"))]
            starts = [s + i for i, s in enumerate(starts)][:-1] if text else [0]
        self._starts = starts
        self._ascii: bool | None = None  # whether the whole text is ASCII (found on first use)

    # -- lines ---------------------------------------------------------------

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def line_start(self, line: int) -> int:
        return self._starts[line]

    def line_end(self, line: int) -> int:
        """Offset of the end of ``line``'s content (before its line break)."""
        if line + 1 < len(self._starts):
            end = self._starts[line + 1]
            if self.text.startswith("\r\n", end - 2) and end - 2 >= self._starts[line]:
                return end - 2
            return end - 1
        return len(self.text)

    def line_text(self, line: int) -> str:
        return self.text[self._starts[line] : self.line_end(line)]

    def line_of(self, offset: int) -> int:
        return bisect_right(self._starts, offset) - 1

    def lines(self) -> Iterator[str]:
        for i in range(len(self._starts)):
            yield self.line_text(i)

    # -- positions -----------------------------------------------------------

    def position(self, offset: int) -> tuple[int, int]:
        """(line, character) of ``offset`` in the client's encoding."""
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        start = self._starts[line]
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
        if line >= len(self._starts):
            return len(self.text)
        start = self._starts[line]
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
