"""A script's text and where each of its characters sits in the document.

A script may be a whole file or one embedded in another form (a YAML block
scalar, a ``sh -c`` word, a heredoc): ``offs[i]`` is then the document
offset of character ``i`` (without it, character ``i`` sits at ``base + i``).
Every span the shell reader makes goes through here.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Sequence

from tree_sitter import Node

from ...text import Span
from ..words import MStr


class ScriptText:
    """``lit``: the text as written (what words are made of); ``src``: the
    text bash's grammar parses (``${{ }}`` masked, non-ASCII replaced: see
    ``grammar.ascii_only``), so tree-sitter's byte offsets are character
    offsets; ``unknown``: ranges whose value only the host form knows
    (GitHub's ``${{ ... }}``); ``data``: ``src`` as tree-sitter reads it."""

    __slots__ = ("lit", "src", "offs", "base", "unknown", "data")

    def __init__(self, lit: str, src: str, offsets: Sequence[int] | None, base: int,
                 unknown: list[tuple[int, int]]) -> None:
        self.lit = lit
        self.src = src
        self.offs = offsets
        self.base = base
        self.unknown = unknown
        self.data = b""

    def doc(self, i: int) -> int:
        if self.offs is None:
            return self.base + i
        if i >= len(self.offs):
            return self.offs[-1] if self.offs else self.base
        return self.offs[i]

    def doc_span(self, a: int, b: int) -> Span:
        start = self.doc(a)
        return Span(start, max(start, self.doc(b)))

    def local(self, doc: int) -> int:
        """Local char index of a document offset (inverse of ``doc``)."""
        if self.offs is None:
            return max(0, min(doc - self.base, len(self.lit)))
        return max(0, bisect_right(self.offs, doc) - 1)

    def span(self, node: Node) -> Span:
        if self.offs is None:
            return Span(self.base + node.start_byte, self.base + node.end_byte)
        return self.doc_span(node.start_byte, node.end_byte)

    def of(self, node: Node) -> str:
        """The text of ``node`` as written."""
        return self.lit[node.start_byte : node.end_byte]

    def verbatim(self, a: int, b: int) -> MStr:
        if self.offs is None:
            s = self.base + a
            return MStr(self.lit[a:b], list(range(s, s + b - a)), list(range(s + 1, s + b - a + 1)))
        return MStr(self.lit[a:b], list(self.offs[a:b]), list(self.offs[a + 1 : b + 1]))
