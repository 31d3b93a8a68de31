"""YAML with exact positions: documents, nodes, and scalar values mapped
character by character back to the document.

PyYAML's C composer (``yaml.CSafeLoader``, libyaml) builds the node graph and
gives each node a start and end mark (code-point offsets), but a scalar's
*value* has lost its quoting, escapes, folding and indentation.  Everything a
linter points at lives inside those values (``--max-model-len`` inside a
``|`` block holding a bash script, a ``\\"`` inside a double-quoted JSON
flag), so ``scalar()`` re-scans each scalar's source with a port of libyaml's
scanning rules and records where every character of the value came from.  The
result is checked against libyaml's own value; should the two ever disagree,
the value is kept and its characters are spread over the scalar's source
(``Mapped.approx``) rather than pointing at wrong places.

Positions pass through ``Src``: the text libyaml parsed (the document, or a
YAML text held *inside* a scalar, such as a ConfigMap's embedded ``--config``
file) and how its offsets map to document offsets.

Hostile input: libyaml itself stops at 1000 nesting levels; the walkers here
stop at ``MAX_DEPTH`` and count the nodes they visit (``Budget``) because
aliases make the node graph a DAG (or a cycle: ``&a [*a]``), so a naive walk
of a "billion laughs" file is exponential.
"""

from __future__ import annotations

import functools
import re
from collections import OrderedDict
from typing import Any, Iterator, Sequence

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..structs import dataclass, field
from ..model import ParseProblem
from ..text import Span
from . import problems

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# A scalar's implicit tag depends only on its kind, text and implicit flags
# and on the resolver's fixed table (safe_load's, no path resolvers), and the
# same few keys and values come back in every manifest; libyaml asks the
# Python resolver for each node, its costliest callback.  One resolver,
# never given a document, answers for all loaders.
_RESOLVER = yaml.resolver.Resolver()  # the table SafeLoader and CSafeLoader use


class _Loader(_Base):
    # A C-level cache: a hit costs no Python frame.
    resolve = staticmethod(functools.lru_cache(maxsize=4096)(_RESOLVER.resolve))


# Walkers give up below this depth; real manifests stay under 20 levels.
MAX_DEPTH = 64
# Nodes a walker may visit in one document (aliases re-visit shared nodes).
MAX_NODES = 200_000

STR = "tag:yaml.org,2002:str"
MERGE = "tag:yaml.org,2002:merge"


# --------------------------------------------------------------------------
# Mapped text: a string whose characters each know their document offset.
# --------------------------------------------------------------------------


@dataclass(slots=True)
class Mapped:
    """``text`` with ``offsets[i]`` = document offset where ``text[i]`` starts
    and ``offsets[len(text)]`` = where the last character ends (the contract
    of ``model.Word.offsets``).

    ``approx`` is True when the per-character positions are interpolated
    (the scalar scan disagreed with libyaml, or a value was re-rendered, such
    as ``0x10`` read as 16).
    """

    text: str
    offsets: list[int]
    approx: bool = False
    # Known to be written as-is (set by the fast path of ``scalar_map``).
    verbatim: bool = False

    def __len__(self) -> int:
        return len(self.text)

    @property
    def span(self) -> Span:
        return Span(self.offsets[0], max(self.offsets[0], self.offsets[-1]))

    def sub(self, i: int, j: int) -> "Mapped":
        return Mapped(self.text[i:j], self.offsets[i : j + 1], self.approx)

    def is_verbatim(self) -> bool:
        """True when ``text[i]`` sits at ``offsets[0] + i`` for every i."""
        if self.verbatim:
            return True
        o = self.offsets
        return o[-1] - o[0] == len(self.text) and _contiguous(o)

    @staticmethod
    def spread(text: str, span: Span) -> "Mapped":
        """``text`` laid over ``span`` when characters do not correspond."""
        n = len(text)
        width = len(span)
        if n == 0:
            return Mapped("", [span.start], True)
        offs = [span.start + (i * width) // n for i in range(n)]
        offs.append(span.end)
        return Mapped(text, offs, True)


def _contiguous(o: Sequence[int]) -> bool:
    first = o[0]
    for i, v in enumerate(o):
        if v != first + i:
            return False
    return True


# --------------------------------------------------------------------------
# Sources and documents.
# --------------------------------------------------------------------------


@dataclass(slots=True)
class Src:
    """The text libyaml read and how its marks map to document offsets.

    ``text[base + mark.index]`` is the character at a mark; ``outer`` (for a
    YAML text found inside a scalar) maps offsets of ``text`` to document
    offsets, and is None at top level where they are the same.
    """

    text: str
    base: int = 0
    outer: Sequence[int] | None = None

    def doc(self, i: int) -> int:
        """Document offset of ``text[i]``."""
        outer = self.outer
        if outer is None:
            return i
        if i >= len(outer):
            return outer[-1]
        return outer[i]

    def start(self, node: Node) -> int:
        return self.base + node.start_mark.index

    def end(self, node: Node) -> int:
        return self.base + node.end_mark.index

    def span(self, node: Node) -> Span:
        """Document span of a node as written (for scalars: properties such as
        ``&anchor`` and ``!!tag`` excluded, quotes included)."""
        # _scalar_bounds inlined: this runs for nearly every node read.
        text = self.text
        s = self.base + node.start_mark.index
        e = self.base + node.end_mark.index
        if isinstance(node, ScalarNode):
            if s < e and text[s] in "&!":
                s = _skip_properties(text, s, e)
            style = node.style
            if style == "|" or style == ">":
                e = _trim_end(text, s, e)
        else:
            e = _trim_end(text, s, e)
        if self.outer is not None:
            s, e = self.doc(s), self.doc(e)
        return Span(s, e if e > s else s)

    def scalar(self, node: ScalarNode) -> Mapped:
        """The scalar's value with the document offset of every character."""
        m = scalar_map(self.text, self.start(node), self.end(node), node.style, node.value)
        if self.outer is not None:
            m = Mapped(m.text, [self.doc(o) for o in m.offsets], m.approx)  # may no longer be verbatim
        return m

    def column(self, i: int) -> int:
        """Column of ``text[i]`` within its line (in ``text``)."""
        nl = max(self.text.rfind("\n", 0, i), self.text.rfind("\r", 0, i))
        return i - nl - 1


@dataclass(slots=True)
class YamlDoc:
    """One document of a YAML stream."""

    src: Src
    root: Node | None
    span: Span  # the document's chunk of text (from its ``---`` line)


# A document starts at a ``---`` line.  libyaml ends every scalar at a
# column-0 ``---`` too, so cutting there never splits a node, and a syntax
# error then only loses its own document.  Matched from the literal, the
# line start checked by hand (see _chunks).
_DASHES = re.compile(r"---(?=[ \t\r\n]|\Z)")

# Composed texts, by text: a --config file named by many launches, a
# ConfigMap's embedded config read again with its manifest.  Nodes are never
# mutated, so sharing them between parses is safe.
_COMPOSED: "OrderedDict[str, tuple[list[Node], ParseProblem | None]]" = OrderedDict()
_COMPOSED_MAX = 512


def load_documents(text: str) -> tuple[list[YamlDoc], list[ParseProblem]]:
    """All documents of ``text``; a syntax error costs only its own document.

    Never raises.  Problems carry document offsets.
    """
    docs: list[YamlDoc] = []
    found: list[ParseProblem] = []
    for start, end in _chunks(text):
        chunk = text[start:end]
        base = start
        if chunk.startswith("\ufeff"):
            # libyaml skips a byte-order mark without counting it.
            base += 1
            chunk = chunk[1:]
        roots, problem = _compose(chunk)
        if problem is not None:
            p = problem
            found.append(
                ParseProblem(
                    p.code,
                    p.message,
                    Span(min(len(text), p.span.start + base), min(len(text), p.span.end + base)),
                    p.severity,
                )
            )
        src = Src(text, base)
        for root in roots:
            docs.append(YamlDoc(src, root, Span(start, end)))
    return docs, found


def load_chunk(chunk: str) -> tuple[list[YamlDoc], ParseProblem | None]:
    """The documents of one chunk (see ``chunks``), positioned in the
    chunk's own text, so that what is read from them can be cached and
    reused wherever the chunk moves."""
    base = 0
    body = chunk
    if chunk.startswith("\ufeff"):
        base, body = 1, chunk[1:]
    roots, problem = _compose(body)
    if problem is not None and base:
        problem = ParseProblem(problem.code, problem.message,
                               Span(problem.span.start + base, problem.span.end + base), problem.severity)
    src = Src(chunk, base)
    return [YamlDoc(src, root, Span(0, len(chunk))) for root in roots], problem


def load_at(text: str, start: int, end: int, chunk: str | None = None) -> tuple[list[YamlDoc], ParseProblem | None]:
    """The documents of the chunk ``text[start:end]`` (see ``chunks``),
    positioned in ``text``: composed alone, read where they are.

    Their nodes are not kept for the next compose of the same text: what
    is read from them is (``yamlforms``), and keeping hundreds of documents'
    nodes alive made the garbage collector's full passes cost a tenth of
    reading a repository of manifests."""
    if chunk is None:
        chunk = text[start:end]
    base, body = start, chunk
    if chunk.startswith("\ufeff"):
        # libyaml skips a byte-order mark without counting it.
        base, body = start + 1, chunk[1:]
    roots, problem = _compose(body, keep=False)
    if problem is not None:
        problem = ParseProblem(problem.code, problem.message,
                               Span(problem.span.start + base, problem.span.end + base), problem.severity)
    src = Src(text, base)
    return [YamlDoc(src, root, Span(start, end)) for root in roots], problem


def chunks(text: str) -> list[tuple[int, int]]:
    """Where each document of a stream starts and ends (``---`` lines)."""
    return _chunks(text)


def directive_stream(text: str) -> bool:
    """Whether ``text`` holds a ``%`` directive line (``%YAML``, ``%TAG``)."""
    # From a fast search for "%", then the line start checked by hand:
    # searching for "\n%" is ~50x slower on text full of line breaks.
    i = text.find("%")
    while i >= 0:
        if i == 0 or text[i - 1] == "\n":
            return True
        i = text.find("%", i + 1)
    return False


def cuts(text: str, start: int = 0, end: int | None = None) -> list[int]:
    """The document starts (``---`` at a line start) in ``text[start:end]``.

    ``end`` must be a document start or the end of ``text``: the pattern's
    end-of-text lookahead matches at ``end``.
    """
    # From the literal "---" (a fast substring search), then the line
    # start checked by hand: a pattern led by ^ is tried at every offset.
    end = len(text) if end is None else end
    return [m.start() for m in _DASHES.finditer(text, start, end)
            if m.start() == 0 or text[m.start() - 1] == "\n"]


_LIST_KIND = re.compile(r"^kind:[ \t]*List[ \t]*(?:#.*)?$", re.M)
_ITEMS_KEY = re.compile(r"^items:[ \t]*(?:#.*)?$", re.M)


def list_items(chunk: str) -> list[int] | None:
    """Where each item of a Kubernetes ``List`` document starts in ``chunk``,
    when its text shows them plainly; None otherwise.

    Plainly: ``kind: List`` and ``items:`` at the top level, ``items`` the
    last top-level key, each item a ``-`` line at one indentation, and
    nothing that ties one item to another or hides the structure (anchors
    and aliases, tabs, template actions).  A ``-`` at the items' indentation
    then always starts the next item: a nested sequence, a block scalar or a
    continued scalar of an item sits deeper.  Each item is then a document
    of its own, composed alone (``yamlforms``); a List with fewer than two
    items is not worth it.
    """
    items = list(_ITEMS_KEY.finditer(chunk))
    if len(items) != 1 or _LIST_KIND.search(chunk) is None:
        return None
    starts = item_starts(chunk, items[0].end() + 1, len(chunk))
    return starts if starts is not None and len(starts) >= 2 else None


def item_starts(text: str, start: int, end: int, indent: int | None = None) -> list[int] | None:
    """The starts of the plain ``-`` items (see ``list_items``) that
    ``text[start:end]`` consists of, at ``indent`` (None: the first item's);
    None when the text is anything else: a line less indented, another key
    at the items' indentation, text before the first item, or one of the
    characters that make items depend on each other."""
    region = text[start:end]
    if "&" in region or "*" in region or "\t" in region or "{{" in region or "\r" in region:
        return None
    starts: list[int] = []
    at = start
    while at < end:
        eol = text.find("\n", at, end)
        eol = end if eol < 0 else eol
        line = text[at:eol]
        body = line.lstrip(" ")
        if body and not body.startswith("#"):
            k = len(line) - len(body)
            is_item = body == "-" or body.startswith("- ")
            if indent is None:
                indent = k
            if k < indent or (k == indent and not is_item) or (not starts and k != indent):
                return None
            if k == indent:
                starts.append(at)
        at = eol + 1
    return starts


def _chunks(text: str) -> list[tuple[int, int]]:
    # A ``%YAML`` directive belongs to the document after the next ``---``;
    # such rare streams are composed whole.
    if directive_stream(text):
        return [(0, len(text))]
    cuts_ = cuts(text)
    if not cuts_ or cuts_[0] != 0:
        cuts_.insert(0, 0)
    cuts_.append(len(text))
    return [(cuts_[i], cuts_[i + 1]) for i in range(len(cuts_) - 1)]


def compose_text(text: str) -> tuple[list[Node], ParseProblem | None]:
    """Compose every document of ``text`` (offsets relative to ``text``)."""
    return _compose(text)


def _compose(chunk: str, keep: bool = True) -> tuple[list[Node], ParseProblem | None]:
    """``keep``: remember the nodes for the next compose of the same text."""
    hit = _COMPOSED.get(chunk)
    if hit is not None:
        _COMPOSED.move_to_end(chunk)
        return hit
    roots: list[Node] = []
    problem: ParseProblem | None = None
    try:
        for root in yaml.compose_all(chunk, Loader=_Loader):
            if root is not None:
                roots.append(root)
    except yaml.YAMLError as e:
        problem = _yaml_problem(e, chunk)
    except (RecursionError, MemoryError, ValueError, TypeError) as e:  # defensive
        problem = ParseProblem(problems.PARSE_ERROR, f"YAML could not be read: {e}", Span(0, 0))
    result = (roots, problem)
    if keep and len(chunk) > 64:
        _COMPOSED[chunk] = result
        if len(_COMPOSED) > _COMPOSED_MAX:
            _COMPOSED.popitem(last=False)
    return result


def _yaml_problem(e: yaml.YAMLError, chunk: str) -> ParseProblem:
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    if mark is not None:
        at = mark.index
    else:
        at = getattr(e, "position", 0) or 0
    at = max(0, min(at, len(chunk)))
    problem = getattr(e, "problem", None)
    context = getattr(e, "context", None)
    if problem:
        message = f"YAML syntax error: {context + ': ' if context else ''}{problem}"
    else:
        message = f"YAML syntax error: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
    # Point at the offending character (or the end of the text).
    return ParseProblem(problems.PARSE_ERROR, message, Span(at, min(len(chunk), at + 1)))


def _trim_end(text: str, start: int, end: int) -> int:
    """Block collections end where the next token starts; pull the end back
    over trailing blank lines and comments so spans cover only the node."""
    i = end
    while i > start:
        j = i
        while j > start and text[j - 1] in " \t\r\n":
            j -= 1
        # a comment on the last line ("- x  # note"); the line is read from
        # its real start (a node on one line must not see the comment lines
        # above it), but only a "#" inside the node counts
        line_start = max(text.rfind("\n", 0, j), text.rfind("\r", 0, j)) + 1
        line = text[line_start:j]
        hash_at = _comment_start(line)
        if hash_at is not None and start <= line_start + hash_at < j:
            k = line_start + hash_at
            while k > start and text[k - 1] in " \t":
                k -= 1
            if k < j:
                i = k
                continue
        return j
    return start


def _comment_start(line: str) -> int | None:
    """Index of a ``#`` that starts a comment in ``line`` (a rough check:
    quoted ``#`` ignored), or None."""
    if "#" not in line:
        return None
    quote = ""
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return i
    return None


# --------------------------------------------------------------------------
# Scalar scanning (a port of libyaml's scanner rules, recording positions).
# --------------------------------------------------------------------------

# Runs copied as written: no blank, no break (plain); nor the quote or an
# escape (quoted); anything but a break (a block scalar's line).
_CONTENT = re.compile(r"[^ \t\r\n\x85\u2028\u2029]*")
_SQ_CONTENT = re.compile(r"[^ \t\r\n\x85\u2028\u2029']*")
_DQ_CONTENT = re.compile(r'[^ \t\r\n\x85\u2028\u2029"\\]*')
_LINE = re.compile(r"[^\r\n\x85\u2028\u2029]*")

_BREAKS = {"\n": "\n", "\r": "\n", "\x85": "\n", "\u2028": "\u2028", "\u2029": "\u2029"}

_ESCAPES = {
    "0": "\0", "a": "\x07", "b": "\x08", "t": "\t", "\t": "\t", "n": "\n",
    "v": "\x0b", "f": "\x0c", "r": "\r", "e": "\x1b", " ": " ", '"': '"',
    "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


def _brk(text: str, i: int) -> tuple[int, str]:
    """(length, normalised char) of a line break at ``i``, or (0, "")."""
    if i >= len(text):
        return 0, ""
    c = text[i]
    n = _BREAKS.get(c)
    if n is None:
        return 0, ""
    if c == "\r" and text.startswith("\n", i + 1):
        return 2, "\n"
    return 1, n


def _scalar_bounds(text: str, start: int, end: int, style: str | None) -> tuple[int, int]:
    """The scalar itself, without ``&anchor`` / ``!tag`` properties and
    (for block scalars) without the trailing lines libyaml includes."""
    i = _skip_properties(text, start, end)
    if style in ("|", ">"):
        return i, _trim_end(text, i, end)
    return i, max(i, end)


_SPACE = " \t\r\n\x85\u2028\u2029"


def _skip_properties(text: str, i: int, end: int) -> int:
    while i < end and text[i] in "&!":
        if text.startswith("!<", i):
            close = text.find(">", i)
            i = close + 1 if 0 <= close < end else i + 1
        while i < end and text[i] not in _SPACE:
            i += 1
        while i < end and text[i] in _SPACE:
            i += 1
        while i < end and text[i] == "#":  # "&a # comment\n  value"
            while i < end and text[i] not in "\r\n\x85\u2028\u2029":
                i += 1
            while i < end and text[i] in _SPACE:
                i += 1
    return i


def scalar_map(text: str, start: int, end: int, style: str | None, value: str) -> Mapped:
    """Map each character of a scalar's ``value`` to its offset in ``text``.

    ``start``/``end`` are libyaml's marks for the node; ``style`` its style.
    """
    s = _skip_properties(text, start, end)
    # Most scalars are written exactly as their value.  A plain scalar's
    # style is None from the pure-Python composer but "" from libyaml's.
    if not style:
        if text[s:end] == value:
            return Mapped(value, list(range(s, end + 1)), verbatim=True)
    elif style in ("'", '"') and end - s == len(value) + 2 and text[s + 1 : end - 1] == value:
        return Mapped(value, list(range(s + 1, end)), verbatim=True)
    try:
        if style in ("'", '"'):
            got = _quoted(text, s, end, style == "'")
        elif style in ("|", ">"):
            got = _block(text, s, end, value)
        else:
            got = _plain(text, s, end)
    except IndexError:
        got = None
    if got is not None and got[0] == value:
        return Mapped(value, got[1])
    lo, hi = _scalar_bounds(text, start, end, style)
    return Mapped.spread(value, Span(lo, max(lo, hi)))


class _Out:
    """Characters of a value being built, each with its source offset."""

    __slots__ = ("chars", "offs", "end")

    def __init__(self, end: int) -> None:
        self.chars: list[str] = []
        self.offs: list[int] = []
        self.end = end

    def add(self, ch: str, at: int, end: int) -> None:
        self.chars.append(ch)
        self.offs.append(at)
        self.end = end

    def extend(self, recs: list[tuple[str, int, int]]) -> None:
        for ch, at, end in recs:
            self.add(ch, at, end)

    def run(self, text: str, i: int, j: int) -> None:
        """``text[i:j]`` copied as written."""
        self.chars.append(text[i:j])
        self.offs.extend(range(i, j))
        self.end = j

    def result(self) -> tuple[str, list[int]]:
        offs = self.offs
        final = max(self.end, offs[-1] if offs else self.end)
        return "".join(self.chars), offs + [final]


def _fold(out: _Out, leading: tuple[str, int, int] | None, trailing: list, run_start: int) -> None:
    """libyaml's line folding: one break becomes a space, a run of empty
    lines keeps its breaks; LS/PS are never folded.  What folding drops
    (blanks, the first break) belongs to the first character it yields, which
    starts where the whitespace run starts."""
    if leading is not None and leading[0] == "\n":
        if not trailing:
            out.add(" ", run_start, leading[2])
        else:
            _extend_from(out, trailing, run_start)
    else:
        recs = ([leading] if leading is not None else []) + trailing
        _extend_from(out, recs, run_start)


def _extend_from(out: _Out, recs: list, at: int) -> None:
    if recs:
        ch, _, end = recs[0]
        out.add(ch, min(at, recs[0][1]), end)
        out.extend(recs[1:])


def _plain(text: str, start: int, end: int) -> tuple[str, list[int]]:
    out = _Out(start)
    i = start
    leading_blanks = False
    whitespaces: list = []
    leading: tuple[str, int, int] | None = None
    trailing: list = []
    run_start = start
    while i < end:
        c = text[i]
        n, ch = _brk(text, i) if c not in " \t" else (0, "")
        if (c == " " or c == "\t" or n) and not whitespaces and not leading_blanks:
            run_start = i
        if c == " " or c == "\t":
            if not leading_blanks:
                whitespaces.append((c, i, i + 1))
            i += 1
            continue
        if n:
            if not leading_blanks:
                whitespaces = []
                leading = (ch, i, i + n)
                leading_blanks = True
            else:
                trailing.append((ch, i, i + n))
            i += n
            continue
        if leading_blanks:
            _fold(out, leading, trailing, run_start)
            leading_blanks, leading, trailing = False, None, []
        elif whitespaces:
            out.extend(whitespaces)
        whitespaces = []
        j = _CONTENT.match(text, i, end).end()
        out.run(text, i, j)
        i = j
    out.end = max(out.end, min(i, end))
    return out.result()


def _quoted(text: str, start: int, end: int, single: bool) -> tuple[str, list[int]] | None:
    quote = "'" if single else '"'
    if start >= end or text[start] != quote:
        return None
    stop = end - 1  # the closing quote
    if stop <= start or text[stop] != quote:
        return None
    out = _Out(start + 1)
    i = start + 1
    escaped_break = i
    plain = _SQ_CONTENT if single else _DQ_CONTENT
    while i < stop:
        leading_blanks = False
        while i < stop:
            c = text[i]
            if c in " \t" or _brk(text, i)[0]:
                break
            if single and c == "'" and text.startswith("'", i + 1):
                out.add("'", i, i + 2)
                i += 2
            elif not single and c == "\\" and _brk(text, i + 1)[0]:
                escaped_break = i
                i += 1 + _brk(text, i + 1)[0]
                leading_blanks = True
                break
            elif not single and c == "\\":
                i = _escape(text, i, out)
                if i < 0:
                    return None
            else:
                j = max(i + 1, plain.match(text, i, stop).end())
                out.run(text, i, j)
                i = j
        whitespaces: list = []
        leading: tuple[str, int, int] | None = None
        trailing: list = []
        run_start = escaped_break if leading_blanks else i
        while i < stop:
            c = text[i]
            if c == " " or c == "\t":
                if not leading_blanks:
                    whitespaces.append((c, i, i + 1))
                i += 1
                continue
            n, ch = _brk(text, i)
            if not n:
                break
            if not leading_blanks:
                whitespaces = []
                leading = (ch, i, i + n)
                leading_blanks = True
            else:
                trailing.append((ch, i, i + n))
            i += n
        if leading_blanks:
            _fold(out, leading, trailing, run_start)
        else:
            out.extend(whitespaces)
    out.end = stop
    return out.result()


def _escape(text: str, i: int, out: _Out) -> int:
    """Decode the escape at ``text[i] == '\\\\'``; returns the next index or -1."""
    code = text[i + 1]
    if code in _ESCAPES:
        out.add(_ESCAPES[code], i, i + 2)
        return i + 2
    width = _HEX_ESCAPES.get(code)
    if width is None:
        return -1
    digits = text[i + 2 : i + 2 + width]
    if len(digits) != width or any(d not in "0123456789abcdefABCDEF" for d in digits):
        return -1
    value = int(digits, 16)
    if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
        return -1
    out.add(chr(value), i, i + 2 + width)
    return i + 2 + width


def _block(text: str, start: int, end: int, value: str) -> tuple[str, list[int]] | None:
    """Literal ``|`` and folded ``>`` scalars, with chomping and indentation
    indicators.  libyaml resolves an explicit indicator against the parent's
    indentation, which a scalar does not record, so candidate indentations
    are tried and the one reproducing libyaml's value wins."""
    if start >= end or text[start] not in "|>":
        return None
    literal = text[start] == "|"
    i = start + 1
    chomp, increment = 0, 0
    for _ in range(2):
        if i < end and text[i] in "+-":
            chomp = 1 if text[i] == "+" else -1
            i += 1
        elif i < end and text[i] in "123456789":
            increment = int(text[i])
            i += 1
    while i < end and not _brk(text, i)[0]:
        i += 1
    content = i + _brk(text, i)[0]
    line_start = content
    if increment:
        candidates = [increment + p for p in range(0, 40)]
    else:
        candidates = [0]
    first = None
    for indent in candidates:
        got = _block_body(text, content, end, literal, chomp, indent, line_start)
        if first is None:
            first = got
        if got[0] == value:
            return got
    if not increment:
        # Auto-detection can differ from libyaml's when the parent's
        # indentation forces a deeper one; try the others.
        for indent in range(1, 40):
            got = _block_body(text, content, end, literal, chomp, indent, line_start)
            if got[0] == value:
                return got
    return first


def _block_body(
    text: str, i: int, end: int, literal: bool, chomp: int, indent: int, line_start: int
) -> tuple[str, list[int]]:
    out = _Out(i)
    trailing: list = []
    # leading breaks / indentation before the first line (and auto-detect)
    i, indent, line_start = _block_breaks(text, i, end, indent, line_start, trailing)
    leading: tuple[str, int, int] | None = None
    leading_blank = False
    while i < end and i - line_start == indent and i < len(text):
        trailing_blank = text[i] in " \t"
        if not literal and leading is not None and leading[0] == "\n" and not leading_blank and not trailing_blank:
            if not trailing:
                out.add(" ", leading[1], leading[2])
            else:  # the dropped break belongs to the first kept one
                _extend_from(out, trailing, leading[1])
                trailing = []
            leading = None
        else:
            if leading is not None:
                out.add(*leading)
            leading = None
        out.extend(trailing)
        trailing = []
        leading_blank = text[i] in " \t"
        j = _LINE.match(text, i, end).end()
        if j > i:
            out.run(text, i, j)
            i = j
        n, ch = _brk(text, i)
        if not n:
            break
        leading = (ch, i, i + n)
        i += n
        line_start = i
        i, indent, line_start = _block_breaks(text, i, end, indent, line_start, trailing)
    if chomp != -1 and leading is not None:
        out.add(*leading)
    if chomp == 1:
        out.extend(trailing)
    return out.result()


def _block_breaks(
    text: str, i: int, end: int, indent: int, line_start: int, trailing: list
) -> tuple[int, int, int]:
    """Eat indentation and empty lines (libyaml's scan_block_scalar_breaks)."""
    max_indent = 0
    while True:
        while i < end and (not indent or i - line_start < indent) and text[i] == " ":
            i += 1
        max_indent = max(max_indent, i - line_start)
        n, ch = _brk(text, i)
        if not n or i >= end:
            break
        trailing.append((ch, i, i + n))
        i += n
        line_start = i
    if not indent:
        indent = max(max_indent, 1)
    return i, indent, line_start


# --------------------------------------------------------------------------
# Navigating nodes.
# --------------------------------------------------------------------------


class Budget:
    """Counts nodes visited by a walk; aliases can make walks exponential."""

    __slots__ = ("left", "exhausted", "too_deep")

    def __init__(self, nodes: int = MAX_NODES) -> None:
        self.left = nodes
        self.exhausted = False
        self.too_deep = False  # something lay deeper than MAX_DEPTH

    def problem(self, at: Span) -> ParseProblem | None:
        """What to tell the user when the walk was cut short."""
        if not (self.exhausted or self.too_deep):
            return None
        why = f"nested deeper than {MAX_DEPTH} levels" if self.too_deep else "too large"
        return ParseProblem(
            problems.PARSE_ERROR,
            f"this YAML document is {why}; servelint did not look at all of it",
            at,
            "warning",
        )

    def take(self) -> bool:
        self.left -= 1
        if self.left < 0:
            self.exhausted = True
            return False
        return True


# Composed nodes are shared between parses (see ``_COMPOSED``) and never
# mutated, so what is derived from a mapping is memoised on the node itself.
_ITEMS = "_servelint_items"
_INDEX = "_servelint_index"


def items(node: Node, _depth: int = 0) -> list[tuple[Node, Node]]:
    """A mapping's (key, value) pairs with ``<<`` merge keys applied the way
    ``yaml.safe_load`` applies them: explicit keys win over merged ones, and
    earlier merge sources win over later ones."""
    if not isinstance(node, MappingNode):
        return []
    cached = node.__dict__.get(_ITEMS)
    if cached is None:
        cached = _merged_items(node, _depth)
        setattr(node, _ITEMS, cached)
    return cached


def _merged_items(node: MappingNode, _depth: int) -> list[tuple[Node, Node]]:
    pairs = node.value
    if not any(k.tag == MERGE for k, _ in pairs):
        return pairs
    own: list[tuple[Node, Node]] = []
    merged: list[tuple[Node, Node]] = []
    for k, v in pairs:
        if k.tag != MERGE:
            own.append((k, v))
            continue
        if _depth > MAX_DEPTH:
            continue
        sources = v.value if isinstance(v, SequenceNode) else [v]
        for sub in sources:
            if isinstance(sub, MappingNode):
                merged.extend(items(sub, _depth + 1))
    if not merged:
        return own
    # Keep the first occurrence of each key among merged, then let own keys
    # override (safe_load: own keys come last and win).
    seen: set = set()
    result: list[tuple[Node, Node]] = []
    own_keys = {_key_id(k) for k, _ in own}
    for k, v in merged:
        kid = _key_id(k)
        if kid in seen or kid in own_keys:
            continue
        seen.add(kid)
        result.append((k, v))
    return result + own


def _key_id(k: Node) -> Any:
    return (k.tag, k.value) if isinstance(k, ScalarNode) else id(k)


def _index(node: MappingNode) -> dict[str, tuple[Node, Node]]:
    index = node.__dict__.get(_INDEX)
    if index is None:
        index = {k.value: (k, v) for k, v in items(node) if isinstance(k, ScalarNode)}
        setattr(node, _INDEX, index)
    return index


def index(node: Node | None) -> dict[str, tuple[Node, Node]]:
    """A mapping's (key node, value node) by string key, as ``get_pair``
    finds them (empty for anything else), for looking up several keys."""
    if not isinstance(node, MappingNode):
        return {}
    return _index(node)


def get(node: Node | None, key: str) -> Node | None:
    """The value for a string key of a mapping (last one wins), or None."""
    if not isinstance(node, MappingNode):
        return None
    pair = _index(node).get(key)
    return pair[1] if pair is not None else None


def get_pair(node: Node | None, key: str) -> tuple[Node, Node] | None:
    if not isinstance(node, MappingNode):
        return None
    return _index(node).get(key)


def keys(node: Node | None) -> list[str]:
    if not isinstance(node, MappingNode):
        return []
    return [k.value for k, _ in items(node) if isinstance(k, ScalarNode)]


def walk_maps(root: Node, budget: Budget | None = None) -> Iterator[tuple[MappingNode, int]]:
    """Every mapping reachable from ``root`` once, with its depth (iterative,
    cycle-safe, budgeted)."""
    budget = budget or Budget()
    seen: set[int] = set()
    stack: list[tuple[Node, int]] = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            budget.too_deep = True
            continue
        if id(node) in seen:
            continue
        budget.left -= 1  # Budget.take, inlined: once per node of every document
        if budget.left < 0:
            budget.exhausted = True
            continue
        seen.add(id(node))
        if isinstance(node, MappingNode):
            yield node, depth
            for _, v in reversed(node.value):
                if not isinstance(v, ScalarNode):
                    stack.append((v, depth + 1))
        elif isinstance(node, SequenceNode):
            for v in reversed(node.value):
                if not isinstance(v, ScalarNode):
                    stack.append((v, depth + 1))


# --------------------------------------------------------------------------
# Python values, as ``yaml.safe_load`` would give them.
# --------------------------------------------------------------------------

# Used for scalars only: a scalar's constructor neither recurses nor caches.
_SC = yaml.constructor.SafeConstructor()


def scalar_value(node: ScalarNode) -> Any:
    """The Python value of a scalar (``yes`` → True, ``0x10`` → 16, ``~`` → None)."""
    fn = _SC.yaml_constructors.get(node.tag)
    if fn is None:
        return node.value
    try:
        return fn(_SC, node)
    except Exception:  # a malformed !!int / !!timestamp: keep the text
        return node.value


@dataclass(slots=True)
class YamlValue:
    """A structured YAML value with its spans, for rules that point inside it
    (``speculative-config: {num_speculative_tokens: 3}``).

    ``value`` is what ``yaml.safe_load`` gives; ``children`` holds a
    sequence's items or a mapping's entries (each entry's ``key`` and
    ``key_span`` set); ``complete`` is False when a depth or size guard cut
    the walk short.
    """

    value: Any
    span: Span
    key: Any = None
    key_span: Span | None = None
    children: list["YamlValue"] | None = None
    complete: bool = True

    def get(self, key: Any) -> "YamlValue | None":
        for c in self.children or ():
            if c.key == key:
                return c
        return None


class _Cut(Exception):
    pass


def to_value(src: Src, node: Node, budget: Budget | None = None, depth: int = 0) -> YamlValue:
    """Build the ``YamlValue`` tree of a node (aliases expanded, within budget)."""
    budget = budget or Budget(20_000)
    try:
        return _to_value(src, node, budget, depth, set())
    except _Cut:
        return YamlValue(None, src.span(node), complete=False)


def _to_value(src: Src, node: Node, budget: Budget, depth: int, active: set[int]) -> YamlValue:
    if not budget.take():
        raise _Cut()
    span = src.span(node)
    if isinstance(node, ScalarNode):
        return YamlValue(scalar_value(node), span)
    if depth > MAX_DEPTH or id(node) in active:
        # too deep, or a recursive structure (&a [*a])
        return YamlValue(None, span, complete=False)
    active.add(id(node))
    try:
        if isinstance(node, SequenceNode):
            kids = [_to_value(src, v, budget, depth + 1, active) for v in node.value]
            return YamlValue(
                [k.value for k in kids], span, children=kids, complete=all(k.complete for k in kids)
            )
        kids = []
        result: dict = {}
        for k, v in items(node):
            kv = _to_value(src, k, budget, depth + 1, active)
            vv = _to_value(src, v, budget, depth + 1, active)
            vv.key, vv.key_span = kv.value, kv.span
            try:
                result[kv.value] = vv.value
            except TypeError:  # an unhashable key (a mapping used as a key)
                result[repr(kv.value)] = vv.value
            kids.append(vv)
        return YamlValue(result, span, children=kids, complete=all(k.complete for k in kids))
    finally:
        active.discard(id(node))


# --------------------------------------------------------------------------
# Containers: where items can be inserted or removed (for fixes).
# --------------------------------------------------------------------------


@dataclass(slots=True)
class Container:
    """A YAML sequence or mapping as laid out in the document.

    ``items``: each sequence item as written (quotes included), or each
    mapping entry from its key to the end of its value.  ``dashes``: for a
    block sequence, the offset of each item's ``-``.  ``column``: the column
    (in code points) where block items or keys start, None for flow style.
    """

    kind: str  # "seq" | "map"
    span: Span
    flow: bool
    items: list[Span] = field(default_factory=list)
    dashes: list[int] = field(default_factory=list)
    column: int | None = None


def container_of(src: Src, node: Node) -> Container | None:
    if isinstance(node, SequenceNode):
        items_ = [src.span(v) for v in node.value]
        flow = bool(node.flow_style)
        dashes: list[int] = []
        if not flow:
            for v in node.value:
                i = _skip_properties(src.text, src.start(v), src.end(v))
                j = src.text.rfind("-", 0, i)
                dashes.append(src.doc(j) if j >= 0 else items_[0].start)
        column = None
        if dashes:
            column = _doc_column(src, src.text.rfind("-", 0, _skip_properties(src.text, src.start(node.value[0]), src.end(node.value[0]))))
        return Container("seq", src.span(node), flow, items_, dashes, column)
    if isinstance(node, MappingNode):
        entries = [src.span(k).cover(src.span(v)) for k, v in node.value]
        flow = bool(node.flow_style)
        column = None
        if not flow and node.value:
            column = _doc_column(src, src.start(node.value[0][0]))
        return Container("map", src.span(node), flow, entries, [], column)
    return None


def _doc_column(src: Src, i: int) -> int:
    """Column of ``src.text[i]`` in the text that holds it (for a nested
    source: within the scalar's own lines, which fixes re-indent)."""
    return src.column(i)


# --------------------------------------------------------------------------
# Argv words from YAML scalars.
# --------------------------------------------------------------------------


def mstr(src: Src, node: ScalarNode):
    """The scalar's value as a ``words.MStr`` (for expansion and splitting)."""
    from .words import MStr

    m = src.scalar(node)
    return MStr.mapped(m.text, m.offsets)


def verbatim_word(src: Src, node: ScalarNode, span: Span | None = None):
    """The scalar as a ``Word`` when its value is written as-is (the common
    case, cheap: no per-character map), else None.  ``span``: the node's
    ``src.span``, when the caller has it."""
    from ..model import Word

    if src.outer is None:
        # scalar_map's fast path, without building the map it would drop.
        text, value, style = src.text, node.value, node.style
        s = src.base + node.start_mark.index
        end = src.base + node.end_mark.index
        if s < end and text[s] in "&!":
            s = _skip_properties(text, s, end)
        if not style:
            if end - s == len(value) and text.startswith(value, s):
                return Word(value, span or src.span(node), s)
        elif style in ("'", '"'):
            if end - s == len(value) + 2 and text.startswith(value, s + 1):
                return Word(value, span or src.span(node), s + 1)
    m = src.scalar(node)
    if m.approx or not m.is_verbatim():
        return None
    return Word(m.text, src.span(node), m.offsets[0])


def scalar_text(node: Node | None) -> str | None:
    """A scalar's value text (whatever its type), else None."""
    return node.value if isinstance(node, ScalarNode) else None


def seq_layout(texts: Sequence[str], flow: bool) -> str:
    """How flags are laid out in an argv list: ``--flag=value`` items
    ("yaml-list"), ``--flag`` then ``value`` items ("yaml-list-pairs"), or a
    flow sequence ("yaml-flow")."""
    if flow:
        return "yaml-flow"
    joined = paired = 0
    for i, t in enumerate(texts):
        if not t.startswith("--"):
            continue
        if "=" in t:
            joined += 1
        elif i + 1 < len(texts) and not texts[i + 1].startswith("-"):
            paired += 1
    return "yaml-list-pairs" if paired > joined else "yaml-list"
