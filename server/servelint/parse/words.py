"""Strings that remember where each character was written, and argv words.

Every parser turns source text into ``Word`` objects whose characters map
back to the document (see ``servelint.model.Word``).  The text a program
receives is rarely a plain slice of the source: quotes disappear, escapes
collapse, variables are replaced by their values.  ``MStr`` carries the
mapping through those steps: one (start, end) document range per character,
so a character that stands for several written ones (``\\"``, a ``$VAR``
replaced by its value) still covers what was written.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from ..model import Word
from ..text import Span

# ``NAME=value`` as an argv word (env prefixes, ``env X=1``, ``docker -e X=1``).
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


class MStr:
    """A string with the document range of each character.

    ``starts[i]``/``ends[i]`` are where ``text[i]`` was written.  Within one
    word the starts never decrease, which is what ``Word.offsets`` needs.
    """

    __slots__ = ("text", "starts", "ends")

    def __init__(self, text: str, starts: list[int], ends: list[int]) -> None:
        self.text = text
        self.starts = starts
        self.ends = ends

    @classmethod
    def verbatim(cls, text: str, start: int) -> "MStr":
        """``text`` written as-is at ``start``."""
        n = len(text)
        return cls(text, list(range(start, start + n)), list(range(start + 1, start + n + 1)))

    @classmethod
    def mapped(cls, text: str, offsets: Sequence[int]) -> "MStr":
        """``text`` whose character ``i`` starts at ``offsets[i]`` (len+1 entries)."""
        n = len(text)
        return cls(text, list(offsets[:n]), list(offsets[1 : n + 1]))

    @classmethod
    def at(cls, text: str, span: Span) -> "MStr":
        """A value shown where it is used: every character covers ``span``."""
        n = len(text)
        return cls(text, [span.start] * n, [span.end] * n)

    @classmethod
    def empty(cls) -> "MStr":
        return cls("", [], [])

    def __len__(self) -> int:
        return len(self.text)

    def __add__(self, other: "MStr") -> "MStr":
        return MStr(self.text + other.text, self.starts + other.starts, self.ends + other.ends)

    def slice(self, i: int, j: int | None = None) -> "MStr":
        return MStr(self.text[i:j], self.starts[i:j], self.ends[i:j])

    def span(self, default: Span | None = None) -> Span:
        if not self.text:
            return default if default is not None else Span(0, 0)
        start = self.starts[0]
        return Span(start, max(start, max(self.ends)))

    def offsets(self) -> list[int]:
        """``Word.offsets`` for this string: each start, then the end."""
        out = list(self.starts)
        # Starts may repeat (a value at its use site) but must never go back.
        for k in range(1, len(out)):
            if out[k] < out[k - 1]:
                out[k] = out[k - 1]
        if out:
            out.append(max(self.ends[-1], out[-1]))
        return out

    def monotonic(self) -> bool:
        s = self.starts
        return all(s[k] <= s[k + 1] for k in range(len(s) - 1))

    def __repr__(self) -> str:
        return f"MStr({self.text!r})"


def make_word(
    m: MStr,
    span: Span | None = None,
    *,
    exact: bool = True,
    note: str | None = None,
) -> Word:
    """A ``Word`` from a mapped string; ``span`` defaults to what it covers."""
    if span is None:
        span = m.span()
    n = len(m.text)
    if not n:
        return Word("", span, -1, [span.start], exact, note)
    starts = m.starts
    s0 = starts[0]
    lo, hi = span.start, span.end
    # The common case, a plain slice of the source: no offsets list needed.
    if (
        m.ends[-1] == s0 + n
        and lo <= s0
        and s0 + n <= hi
        and starts[-1] == s0 + n - 1
        and starts == list(range(s0, s0 + n))
    ):
        return Word(m.text, span, s0, None, exact, note)
    offsets = m.offsets()
    if offsets[0] < lo or max(offsets[-1], max(offsets)) > hi:
        # Keep ``span.start <= offsets <= span.end`` for consumers.
        offsets = [min(max(o, lo), hi) for o in offsets]
    return Word(m.text, span, -1, offsets, exact, note)


def mstr_of(word: Word) -> MStr:
    """The mapped string behind a word (for re-parsing its text, e.g. ``sh -c``)."""
    n = len(word.text)
    if word.offsets is None:
        return MStr.verbatim(word.text, word.base)
    offs = list(word.offsets)
    if len(offs) < n + 1:
        offs += [offs[-1] if offs else word.span.start] * (n + 1 - len(offs))
    return MStr(word.text, offs[:n], [max(a, b) for a, b in zip(offs[1 : n + 1], offs[:n])])


def subword(word: Word, i: int, j: int | None = None) -> Word:
    """``word.text[i:j]`` as a word of its own (``--entrypoint=x`` → ``x``)."""
    n = len(word.text)
    j = n if j is None else j
    sp = word.sub(i, j)
    if word.offsets is None:
        return Word(word.text[i:j], sp, word.base + i, None, word.exact, word.note)
    offs = [word.at(k) for k in range(i, j + 1)]
    return Word(word.text[i:j], sp, -1, offs, word.exact, word.note)


def join_words(words: Iterable[Word], sep: str = " ") -> MStr:
    """Words joined as a shell joins ``eval a b`` or ``tmux new 'a' b``."""
    out = MStr.empty()
    first = True
    for w in words:
        m = mstr_of(w)
        if not first and sep:
            gap = out.ends[-1] if out.ends else w.span.start
            out = out + MStr(sep, [gap] * len(sep), [gap] * len(sep))
        out = out + m
        first = False
    return out


def cover(a: Span, b: Span) -> Span:
    """``a.cover(b)``, reusing ``a`` or ``b`` when one already covers the other.

    Finding a launch covers a few spans per command, and nearly always one
    holds the other: a new ``Span`` (a frozen dataclass, slow to build) is
    then not needed."""
    if a.start <= b.start and b.end <= a.end:
        return a
    if b.start <= a.start and a.end <= b.end:
        return b
    return a.cover(b)


def basename(text: str) -> str:
    """``/usr/bin/python3`` → ``python3``."""
    return text.rsplit("/", 1)[-1]


def assignment(text: str) -> str | None:
    """The name of a ``NAME=value`` word, else None."""
    m = ASSIGNMENT.match(text)
    return m.group(0)[:-1] if m else None


def split_words(m: MStr, inexact: list[bool], note: str | None = None, on_operator=None) -> list[Word]:
    """Shell-like words of ``m`` without a shell: quotes and backslashes are
    honoured, nothing is expanded (go-shellwords' rules, as compose splits a
    command string).  ``inexact[i]``: whether ``m.text[i]`` is not known
    from the file (its word gets ``note``).  An unquoted ``;&|<>`` ends the
    words; ``on_operator(char, span of the rest)`` hears of it."""
    text = m.text
    words: list[Word] = []
    chars: list[int] = []  # source indices of the current word's characters
    synthetic: dict[int, str] = {}  # index → translated char (\t, \n)
    first = -1  # where the current word starts (its opening quote included)
    last = -1
    quote = ""
    got = False
    i, n = 0, len(text)

    def flush() -> None:
        nonlocal chars, first, got, synthetic
        if got:
            value = "".join(synthetic.get(k, text[k]) for k in chars)
            starts = [m.starts[k] for k in chars]
            ends = [m.ends[k] if k not in synthetic else m.ends[k + 1] for k in chars]
            span = Span(m.starts[first], max(m.starts[first], m.ends[last]))
            exact = not any(inexact[first : last + 1])
            words.append(make_word(MStr(value, starts, ends), span, exact=exact, note=None if exact else note))
        chars, first, got, synthetic = [], -1, False, {}

    while i < n:
        c = text[i]
        if c == "\\" and quote != "'" and i + 1 < n:
            if first < 0:
                first = i
            # The escape covers both characters; \t and \n are translated.
            nxt = text[i + 1]
            synthetic[i] = {"t": "\t", "n": "\n"}.get(nxt, nxt)
            chars.append(i)
            got, last = True, i + 1
            i += 2
            continue
        if c in " \t\r\n" and not quote:
            flush()
            i += 1
            continue
        if c in "\"'" and (not quote or quote == c):
            if first < 0:
                first = i
            quote = "" if quote else c
            got, last = True, i
            i += 1
            continue
        if c in ";&|<>" and not quote:
            flush()
            if on_operator is not None:
                on_operator(c, Span(m.starts[i], m.ends[n - 1]))
            return words
        if first < 0:
            first = i
        chars.append(i)
        got, last = True, i
        i += 1
    flush()
    return words
