"""Shell scripts → vLLM launches, with tree-sitter-bash.

How a script is read:

1. The form's own variable language runs first (``expand``): Kubernetes
   replaces ``$(VAR)`` before any shell starts; GitHub Actions substitutes
   ``${{ ... }}``, whose value we cannot know.
2. tree-sitter-bash parses the text (error-tolerant: half-typed input is the
   normal case in an editor).
3. Statements are walked top-down with one simple variable scope: an
   assignment is visible to everything after it, a function body sees the
   globals as they are when it is first called, ``local`` stays in its
   function, a subshell's changes are dropped.
4. Each command that could launch vLLM has its argv expanded the way bash
   would (quotes removed, ``$VAR`` and ``${VAR:-default}`` replaced, unquoted
   values split into words), every character mapped to the document.
5. ``entry.find_launches`` decides whether that argv launches vLLM; scripts
   inside it (``bash -c``, ``eval``, heredocs fed to a shell) are parsed again
   with their characters still mapped to the document.

A value we cannot know (a command's output, a loop variable, a script
argument) keeps its written text and makes the word inexact, with a note that
says why; rules must not reason about such words.
"""

from __future__ import annotations

import ast
import fnmatch
import os
import re
import threading
from bisect import bisect_left, bisect_right
from math import isqrt
from dataclasses import dataclass, field, replace
from operator import itemgetter
from typing import NamedTuple, Sequence

from tree_sitter import Language, Node, Parser, Range

from ..model import Env, EnvVar, Form, Launch, MovedLaunch, ParsedDocument, ParseProblem, ReleaseHint, Word
from ..text import KnownEdit, Span, edit_between
from . import problems
from .entry import config_refs, could_start_launch, find_launches
from .words import MStr, basename, cover, make_word, mstr_of

def _bash_grammar():
    """tree-sitter-bash's language, without running its package's
    ``__init__``: that imports ``importlib.resources`` (with pathlib,
    tempfile and zipfile: 14 ms, a tenth of a cold ``check``) for highlight
    queries servelint never reads.  Tree-sitter's grammar packages all ship
    the language in a ``_binding`` extension module; should this one not,
    the package is imported the usual way."""
    import importlib.machinery as machinery

    try:
        spec = machinery.PathFinder.find_spec("tree_sitter_bash")
        for folder in (spec.submodule_search_locations or ()) if spec is not None else ():
            for suffix in machinery.EXTENSION_SUFFIXES:
                path = os.path.join(folder, "_binding" + suffix)
                if os.path.isfile(path):
                    loader = machinery.ExtensionFileLoader("tree_sitter_bash._binding", path)
                    binding = loader.create_module(machinery.ModuleSpec(loader.name, loader, origin=path))
                    loader.exec_module(binding)
                    return binding.language()
    except Exception:  # noqa: BLE001 - any surprise: the documented way below
        pass
    import tree_sitter_bash

    return tree_sitter_bash.language()


_LANGUAGE = Language(_bash_grammar())
_PARSER: Parser | None = None
_PARSER_LOCK = threading.Lock()


def _parse_tree(data: bytes):
    # One parser per process (creating one costs more than parsing a script);
    # the lock keeps it safe if a server ever parses from two threads.
    global _PARSER
    with _PARSER_LOCK:
        if _PARSER is None:
            _PARSER = Parser(_LANGUAGE)
        return _PARSER.parse(data)


_RANGE_PARSER: Parser | None = None


def _parse_range(data: bytes, src: str, a: int, b: int):
    """``data[a:b]`` parsed alone, its nodes at their places in ``data``
    (``src`` is ``data`` as text: ASCII, so bytes and characters agree)."""
    global _RANGE_PARSER
    row = src.count("\n", 0, a)
    start = (row, a - (src.rfind("\n", 0, a) + 1))
    end = (row + src.count("\n", a, b), b - (src.rfind("\n", 0, b) + 1))
    with _PARSER_LOCK:
        if _RANGE_PARSER is None:
            _RANGE_PARSER = Parser(_LANGUAGE)
        _RANGE_PARSER.included_ranges = [Range(start, end, a, b)]
        return _RANGE_PARSER.parse(data)


@dataclass
class ShellResult:
    """What ``parse_shell`` found in one script."""

    launches: list[Launch] = field(default_factory=list)
    # Problems not tied to one launch (a syntax error that swallowed one).
    problems: list[ParseProblem] = field(default_factory=list)
    # ``--config PATH`` references of the launches, as in ``ParsedDocument``.
    config_refs: list[tuple[Launch, Word]] = field(default_factory=list)


class _Tracked(dict):
    """A dict (or a set: name → True) that logs every key it changes.

    The log is what the walker's snapshots and its shared environment read
    to learn what changed since they last looked, without comparing whole
    states.  Copies share the log (a subshell's copy of the variables is put
    back after it), so every change is in the one log.
    """

    __slots__ = ("log",)

    def __init__(self, items=(), log: list | None = None) -> None:
        dict.__init__(self, items)
        self.log: list = [] if log is None else log

    def __setitem__(self, key, value) -> None:
        self.log.append(key)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key) -> None:
        self.log.append(key)
        dict.__delitem__(self, key)

    def pop(self, key, *default):
        self.log.append(key)
        return dict.pop(self, key, *default)

    def setdefault(self, key, default=None):
        if key not in self:
            self.log.append(key)
        return dict.setdefault(self, key, default)

    def update(self, *args, **kwargs) -> None:
        other = dict(*args, **kwargs)
        self.log.extend(other)
        dict.update(self, other)

    def add(self, key) -> None:
        if key not in self:
            self[key] = True

    def copy(self) -> "_Tracked":
        return _Tracked(self, self.log)

    def _untracked(self, *args, **kwargs):
        raise TypeError("this change would not be logged")

    clear = popitem = __ior__ = _untracked


_GONE = object()  # in a journal entry: the name was removed
# The parts of a walker's state a snapshot holds (each a ``_Tracked``).
_STATE = ("vars", "exported", "assigned", "functions", "called")


class _Journal:
    """The state of one script walk before each top-level statement, shared.

    A full copy of the variables before every statement that changes one
    grows with statements × variables (a generated script with 5,000
    variables between 20,000 statements needed gigabytes).  Instead each
    change is logged once, as the name's value when the next snapshot is
    taken, with a full copy whenever the log since the last one outgrows the
    state: the copies then add up to a few times the final state, and a
    snapshot is a place in the log.

    Functions are kept by name only: a re-read from a snapshot never runs
    one (a call changes the state, and ``reparse`` then reads the whole
    script), and their bodies would keep the document's whole tree alive.
    """

    def __init__(self, w: "_Walker") -> None:
        self.log: list[tuple[int, object, object]] = []  # (index in _STATE, name, value or _GONE)
        self.marks: list[int] = []  # where in the log each copy was taken
        self.copies: list[tuple[dict, ...]] = []
        self.size = 0
        self.seen = [len(getattr(w, part).log) for part in _STATE]
        self._copy(w)

    def _copy(self, w: "_Walker") -> None:
        copy = tuple(
            dict.fromkeys(w.functions, True) if part == "functions" else dict(getattr(w, part))
            for part in _STATE
        )
        self.marks.append(len(self.log))
        self.copies.append(copy)
        self.size = sum(len(c) for c in copy)

    def snapshot(self, w: "_Walker") -> "_Snapshot":
        log = self.log
        for k, part in enumerate(_STATE):
            d = getattr(w, part)
            changed = d.log
            if len(changed) > self.seen[k]:
                for name in dict.fromkeys(changed[self.seen[k] :]):
                    value = d.get(name, _GONE)
                    log.append((k, name, True if part == "functions" and value is not _GONE else value))
                self.seen[k] = len(changed)
        if len(log) - self.marks[-1] > max(64, self.size):
            self._copy(w)
        return _Snapshot(self, len(log), w.allexport, w.sourced)

    def state(self, at: int) -> list[dict]:
        """The state at log position ``at``: the copy before it, then the log since."""
        k = bisect_right(self.marks, at) - 1
        state = [dict(c) for c in self.copies[k]]
        for part, name, value in self.log[self.marks[k] : at]:
            if value is _GONE:
                state[part].pop(name, None)
            else:
                state[part][name] = value
        return state


@dataclass(frozen=True)
class _Snapshot:
    """The script's state before a top-level statement: a place in the walk's journal."""

    journal: _Journal
    at: int
    allexport: bool
    sourced: bool

    def restore(self, w: "_Walker") -> None:
        for part, values in zip(_STATE, self.journal.state(self.at)):
            setattr(w, part, _Tracked(values))
        w.allexport = self.allexport
        w.sourced = self.sourced


class _Top(NamedTuple):
    """One top-level statement of a script, as last read.  A tuple: every
    statement below an edit is made again, shifted, on each keystroke."""

    start: int
    end: int
    pure: bool  # reading it changed no variable, function or option
    snap: _Snapshot | None  # the state before it; None once positions after an edit moved


_new_top = tuple.__new__  # without _Top's own __new__, a Python call
_top_start, _top_end = itemgetter(0), itemgetter(1)


# A tail statement's start and end as offsets minus the text's length:
# ascending in text order, as the distances it holds descend.
def _tail_start(t: _Top) -> int:
    return -t[0]


def _tail_end(t: _Top) -> int:
    return -t[1]


class _Tops:
    """A script's top-level statements in text order (by start and by end).

    Those above the last edit (``head``) hold their offsets; those below it
    (``tail``) hold their distance from the end of the text, which an edit
    above them does not change.  So a keystroke shifts no statement: only
    the statements between this edit and the last one change sides."""

    __slots__ = ("head", "tail", "length")

    def __init__(self, head: list[_Top], tail: list[_Top], length: int) -> None:
        self.head, self.tail, self.length = head, tail, length

    def __len__(self) -> int:
        return len(self.head) + len(self.tail)

    def __getitem__(self, k: int) -> _Top:
        head = self.head
        if k < len(head):
            return head[k]
        t = self.tail[k - len(head)]
        return _new_top(_Top, (self.length - t[0], self.length - t[1], t[2], t[3]))

    def first_ending_at_or_after(self, offset: int) -> int:
        head = self.head
        if head and head[-1][1] >= offset:
            return bisect_left(head, offset, key=_top_end)
        return len(head) + bisect_left(self.tail, offset - self.length, key=_tail_end)

    def last_starting_at_or_before(self, offset: int) -> int:
        head, tail = self.head, self.tail
        if tail and self.length - tail[0][0] <= offset:
            return len(head) + bisect_right(tail, offset - self.length, key=_tail_start) - 1
        return bisect_right(head, offset, key=_top_start) - 1

    def all_above(self, length: int) -> "_Tops":
        """These statements after an edit below all of them (``length``
        long): each at its offset."""
        return self.spliced(len(self), len(self) - 1, [], length)

    def spliced(self, first: int, last: int, region: list[_Top], length: int) -> "_Tops":
        """These statements with ``first..last`` replaced by ``region`` (at
        their offsets in the edited text, ``length`` long)."""
        head, tail, old = self.head, self.tail, self.length
        n = len(head)
        if first <= n:
            before = head[:first]
        else:  # the statements between the last edit and this one move above it
            before = head + [_new_top(_Top, (old - t[0], old - t[1], t[2], t[3])) for t in tail[: first - n]]
        if last + 1 >= n:
            after = tail[last + 1 - n :]
        else:  # and those between this edit and the last one below it
            after = [_new_top(_Top, (old - t[0], old - t[1], t[2], None)) for t in head[last + 1 :]]
            after += tail
        return _Tops(before + region, after, length)


@dataclass
class ShellIncremental:
    """What a later edit of the same script can reuse (kept on ParsedDocument.cache)."""

    text: str
    tops: _Tops
    launches: list[Launch]
    problems: list[ParseProblem]
    assigned: frozenset  # every name assigned anywhere: decides "unset" findings
    sourced: bool
    from_edit: bool = False  # this parse re-read only the edited statements
    # ids of the launches that name a --config file (kept, so a re-parse
    # need not read every moved launch's words to find them again)
    with_refs: frozenset = frozenset()
    # Where reading stopped at the launch limit (``tops`` end there), and
    # that limit.
    unread: Span | None = None
    max_launches: int = 0
    # When this parse is that of ``text[:prefix_end]`` (see ``_prefix_end``):
    # an edit past it changes nothing read.  -1: unknown.
    prefix_end: int = -1
    # ids of the launches read in a function's body (``_Walker.in_calls``)
    in_calls: frozenset = frozenset()


def parse_shell_document(path: str, text: str, previous: ParsedDocument | None = None,
                         max_launches: int = 0, edit: "KnownEdit | None" = None) -> ParsedDocument:
    """A shell script (``.sh``, ``.sbatch``...) → its launches.

    With ``previous`` (the last parse of the same document), only the
    top-level statements an edit touched are read again when that is safe;
    the result is the same as a full parse (tests check it on random edits).
    """
    prev = getattr(previous, "cache", None) if previous is not None else None
    if isinstance(prev, ShellIncremental) and (prev.unread is None or prev.max_launches == max_launches):
        doc = reparse(path, text, prev, max_launches, edit)
        if doc is not None:
            return doc
    if max_launches:
        doc = _head_only(path, text, max_launches)
        if doc is not None:
            return doc
    try:
        walker, result = _walk(text, max_launches)
    except Exception:  # noqa: BLE001 - this runs on every keystroke
        if os.environ.get("SERVELINT_STRICT"):
            raise
        return ParsedDocument(path=path, form=Form.SHELL)
    if walker.unread is not None and walker.tops is None:
        # A syntax error somewhere: tree-sitter's recovery can reshape the
        # statements before the launch limit too.  Bash runs those before it
        # ever reads the error, and so does servelint when they parse alone.
        at = walker.unread
        for _ in range(4):
            doc, found = _prefix_only(path, text, at, max_launches)
            if doc is not None:
                return doc
            # The prefix alone may find the launch past the limit earlier
            # (recovery hid one before it): try the prefix up to that one.
            if found is None or found.start >= at.start:
                break
            at = found
    doc = ParsedDocument(
        path=path,
        form=Form.SHELL,
        launches=result.launches,
        problems=result.problems,
        config_refs=result.config_refs,
        unread=walker.unread,
    )
    if walker.tops is not None and not result.problems and (walker.unread is None or walker.stopped_early):
        _keep(doc, text, walker, result)
    return doc


def _walk(text: str, limit: int) -> "tuple[_Walker, ShellResult]":
    """A whole script's walk, statement by statement, reading at most
    ``limit`` launches (0: all)."""
    walker = _Walker(text, _ascii_only(text), None, 0, Form.SHELL, {}, "shell", [], None)
    walker.tops = []
    walker.max_launches = limit
    return walker, walker.run()


def _keep(doc: ParsedDocument, text: str, walker: "_Walker", result: ShellResult) -> None:
    """What a later edit of ``text`` can re-read in part, on ``doc``."""
    doc.cache = ShellIncremental(text, _Tops(walker.tops, [], len(text)), result.launches, result.problems,
                                 frozenset(walker.assigned), walker.sourced,
                                 with_refs=frozenset(id(l) for l, _ in result.config_refs),
                                 unread=walker.unread, max_launches=walker.max_launches,
                                 prefix_end=_prefix_end(text, walker), in_calls=frozenset(walker.in_calls))


def _limited(path: str, text: str, walker: "_Walker", result: ShellResult) -> ParsedDocument:
    """The parse of ``text`` that a clean walk of part of it (stopped at the
    launch limit) gives."""
    doc = ParsedDocument(path=path, form=Form.SHELL, launches=result.launches, problems=[],
                         config_refs=result.config_refs, unread=walker.unread)
    _keep(doc, text, walker, result)
    return doc


def _prefix_end(text: str, walker: "_Walker") -> int:
    """For a parse that stopped at the launch limit: where the text it
    depends on ends (-1 when that is not known).

    That is the end of the line holding the first launch past the limit,
    and of the lines a ``\\`` continues it onto (``_continued``), when the
    walk stopped in a top-level statement that holds the launch, ends on
    the last of those lines and has no heredoc.  Every statement read is
    then complete in that prefix, and parses there as in the whole text."""
    unread, tops = walker.unread, walker.tops
    # Stopped at a launch written in the statement, not in a function body
    # (read where it is called, or after the walk).
    if unread is None or not tops or not walker.stopped_in_walk:
        return -1
    last = tops[-1]
    if not last.start <= unread.start < unread.end <= last.end:
        return -1
    end = _continued(text, unread.end)
    if end < 0 or text.find("\n", last.end) != end or "<<" in text[last.start : end]:
        return -1
    return end + 1


def _continued(text: str, at: int) -> int:
    """The line break ending the line at ``at`` and those a trailing ``\\``
    joins to it; -1 if the text ends first."""
    nl = text.find("\n", at)
    while nl >= 0:
        k = nl - 1
        if k >= 0 and text[k] == "\r":
            k -= 1
        if k < 0 or text[k] != "\\":
            return nl
        nl = text.find("\n", nl + 1)
    return -1


def _prefix_only(path: str, text: str, unread: Span, limit: int) -> tuple[ParsedDocument | None, Span | None]:
    """The parse of ``text`` up to the end of ``unread``'s line (and its
    continuation lines), alone, when that prefix parses without error and is
    all a parse stopping at the limit reads (``_prefix_end``); else None.
    Also where that prefix's own parse stopped."""
    end = _continued(text, unread.end)
    if end < 0:
        return None, None
    head = text[: end + 1]
    try:
        walker, result = _walk(head, limit)
    except Exception:  # noqa: BLE001 - the whole parse stands
        return None, None
    if walker.tops is None or result.problems or _prefix_end(head, walker) != len(head):
        return None, walker.unread
    return _limited(path, text, walker, result), walker.unread


def _head_only(path: str, text: str, limit: int) -> ParsedDocument | None:
    """The parse of a script with far more launches than ``limit``, reading
    only its head; None when the whole script must be read.

    A full parse stops reading at the first command past the limit, but
    tree-sitter would still parse all of it first: 0.2 s for 10,000 launch
    lines.  The head ends after twice as many mentions of vllm as the limit
    needs (every launch mentions it, in a command, image, module or the
    variable holding one).  Its statements parse as they do in the whole
    text when the head has no syntax error and no heredoc (whose body may go
    on past it), and the walk stops before its last statement (which may
    go on past it)."""
    low = text.lower()
    at = -1
    for _ in range(2 * (limit + 1)):
        at = low.find("vllm", at + 1)
        if at < 0:
            return None
    end = text.find("\n", at)
    if end < 0:
        return None
    head = text[: end + 1]
    if "<<" in head:
        return None
    try:
        walker, result = _walk(head, limit)
    except Exception:  # noqa: BLE001 - the full parse decides
        return None
    if walker.tops is None or result.problems or walker.unread is None or not walker.stopped_early:
        return None
    return _limited(path, text, walker, result)


def _as_before(path: str, prev: ShellIncremental, cache: ShellIncremental) -> ParsedDocument:
    """The last parse's launches and problems, unchanged, with ``cache``."""
    doc = ParsedDocument(path=path, form=Form.SHELL, launches=prev.launches, problems=prev.problems,
                         config_refs=[(l, w) for l in prev.launches if id(l) in prev.with_refs
                                      for w in config_refs(l)], unread=prev.unread)
    doc.cache = cache
    return doc


def reparse(path: str, text: str, prev: ShellIncremental, max_launches: int = 0,
            edit: "KnownEdit | None" = None) -> ParsedDocument | None:
    """Re-read only the statements an edit touched, or None when a full parse is needed."""
    if text == prev.text:
        return _as_before(path, prev, prev)
    start, old_end, new_end = edit_between(prev.text, text, edit)
    delta = new_end - old_end
    tops = prev.tops
    if prev.unread is not None and 0 <= prev.prefix_end <= start:
        # Past the text a parse stopping at the launch limit reads: nothing
        # read changes (every statement read is above the edit).
        return _as_before(path, prev, replace(prev, text=text, tops=tops.all_above(len(text)), from_edit=True))
    # The statements the edit touches, edges included: deleting the line
    # break between two statements touches both.
    first = tops.first_ending_at_or_after(start)
    last = tops.last_starting_at_or_before(old_end)
    if last < first:
        # The edit sits between statements (a blank line, say): read it with
        # the statement after it.
        last = first
    if not tops or first >= len(tops):
        return None
    rs = min(tops[first].start, start)
    re_old = max(tops[last].end, old_end)
    while True:
        # Whole lines, so the region never starts inside a word; and every
        # statement on those lines, so that none is read twice, or read
        # again from a snapshot already holding its effect (`A=1  # c` with
        # the edit in the comment).
        rs = prev.text.rfind("\n", 0, rs) + 1
        nl = prev.text.find("\n", re_old)
        re_old = len(prev.text) if nl < 0 else nl
        if first > 0 and (tops[first - 1].end > rs or "\\" in prev.text[tops[first - 1].end : rs]):
            # A statement ending on these lines, or one whose trailing `\`
            # continues it onto them (a word typed on the line after
            # `--dtype bf16 \` belongs to that launch).
            first -= 1
            rs = min(rs, tops[first].start)
        elif last + 1 < len(tops) and tops[last + 1].start < re_old:
            last += 1
            re_old = max(re_old, tops[last].end)
        else:
            break
    if prev.unread is not None and last >= len(tops) - 1:
        return None  # the statement where reading stopped: only a full parse knows what is past it
    region = [tops[k] for k in range(first, last + 1)]
    snap = region[0].snap
    if snap is None or not all(t.pure for t in region):
        return None
    re_new = re_old + delta
    if re_new < rs or re_new > len(text) or text[:rs] != prev.text[:rs]:
        return None
    piece = text[rs:re_new]
    if "<<" in piece:
        # A heredoc may end past the region (or its end line was just
        # typed or deleted): tree-sitter reads an unterminated one without
        # an error, so only a full parse knows where it stops.
        return None
    walker = _Walker(piece, _ascii_only(piece), None, rs, Form.SHELL, {}, "shell", [], None)
    snap.restore(walker)
    walker.tops = []
    before = walker.version
    walker._data = walker.src.encode("utf-8", "surrogatepass")
    tree = _parse_tree(walker._data)
    root = tree.root_node
    if root.has_error:
        return None
    walker._walk_tops(root, journal=False)
    if walker.version != before:
        return None  # the edit changed variables or functions: later launches may read them
    walker.assigned = set(prev.assigned)
    walker.sourced = prev.sourced
    walker._finish_unset()
    for launch in walker.direct:
        launch.layout = walker._layout(launch)
    if walker.problems:
        return None
    new_tops = [_Top(t.start + rs, t.end + rs, t.pure, snap) for t in walker.tops]
    kept_before = [l for l in prev.launches if l.span.start < rs]
    # What these launches refer to before them (an ``export``) moved too if
    # it is after the edit, even inside the re-read region.
    if any(l.span.end > rs for l in kept_before):
        return None  # a launch spanning into the region: read everything again
    unread = None
    if prev.unread is not None:
        # Past the launch limit, the same number of launches must stay
        # before the place where reading stopped: the edit moves it, no more.
        if len(walker.launches) != sum(1 for l in prev.launches if rs <= l.span.start < re_old):
            return None
        unread = prev.unread
        if unread.start >= re_old:
            unread = Span(unread.start + delta, unread.end + delta)
        elif unread.end > rs:
            # In the region (a function read where it is called): found
            # again only by reading all.
            return None
    steps: dict = {}
    in_calls = set()
    if prev.in_calls:
        kept_before, in_calls = _called_above(kept_before, prev.in_calls, delta, start)
    moved = [_moved(l, delta, start, steps) for l in prev.launches if l.span.start >= re_old]
    in_calls.update(id(l) for l in moved if id(l.moved_from) in prev.in_calls)
    region_launches = sorted(walker.launches, key=lambda l: (l.span.start, l.span.end))
    launches = kept_before + region_launches + moved
    if max_launches and unread is None and len(launches) > max_launches:
        return None  # now past the launch limit: a full parse stops where it should
    with_refs = {id(l) for l in kept_before if id(l) in prev.with_refs}
    with_refs.update(id(l) for l in region_launches if config_refs(l))
    with_refs.update(id(l) for l in moved if id(l.moved_from) in prev.with_refs)
    doc = ParsedDocument(path=path, form=Form.SHELL, launches=launches, problems=[],
                         config_refs=[(l, w) for l in launches if id(l) in with_refs for w in config_refs(l)],
                         unread=unread)
    # The prefix a limited parse reads moves with the edit above its end (a
    # re-read region holds no heredoc, and never the statement it ends in).
    prefix_end = prev.prefix_end + delta if unread is not None and prev.prefix_end >= 0 else -1
    doc.cache = ShellIncremental(text, tops.spliced(first, last, new_tops, len(text)), launches, [], prev.assigned,
                                 prev.sourced, True,
                                 frozenset(with_refs), unread, prev.max_launches, prefix_end, frozenset(in_calls))
    return doc


def _called_above(kept: list[Launch], in_calls: frozenset, delta: int, at: int) -> tuple[list[Launch], set[int]]:
    """The launches above an edit, those read in a function's body with the
    variables the edit moved (a call below it) made again with them moved;
    and the ids of all those read in a function's body."""
    out, ids = list(kept), set()
    step = _Step(None, delta, at)
    for k, launch in enumerate(kept):
        if id(launch) not in in_calls:
            continue
        env = _moved_env(launch.env, step)
        if env is not launch.env:
            # Its own words stay where they are: a copy, which the engine
            # knows by ``moved_from`` (the link the last lint used is let go,
            # as in ``_moved``).
            launch.moved_from = None
            launch = out[k] = replace(launch, env=env, moved_from=launch)
        ids.add(id(launch))
    return out, ids


def _moved(launch: Launch, delta: int, at: int, steps: dict) -> Launch:
    """``launch`` moved by an edit above it, its words shifted only when read.

    A launch still unread since earlier moves composes them: it keeps the
    launch it was last read as and the list of moves since (``_Step``, shared
    by every launch moved by the same edits), never the versions between."""
    # The last lint has used this link; keeping it would chain every
    # version of the launch since the file was opened.
    launch.moved_from = None
    pending = launch.pending if isinstance(launch, MovedLaunch) and launch.unread else None
    if pending is not None and pending[1].depth >= _replay_limit(pending[0]):
        launch._materialize()
        pending = None
    root, before = pending if pending is not None else (launch, None)
    step = steps.get(id(before))
    if step is None:
        step = steps[id(before)] = _Step(before, delta, at)
    hints = [h if h.span.end < at else ReleaseHint(h.version, _shift_span(h.span, delta, at), h.kind, h.text)
             for h in launch.release_hints]
    return MovedLaunch.of(
        launch, _shift_span(launch.span, delta), _shift_span(launch.entry_span, delta), hints,
        lambda: _replay(root, step), (root, step),
    )


class _Step:
    """One edit's move (``delta`` characters from ``at`` on), after ``before``."""

    __slots__ = ("before", "delta", "at", "depth", "low", "high", "total", "_moves", "_spans")

    def __init__(self, before: "_Step | None", delta: int, at: int) -> None:
        self.before, self.delta, self.at = before, delta, at
        self.depth = 1 if before is None else before.depth + 1
        # Most places are before every edit (the exports at the top of a
        # script) or after every edit (the launch that moved): those move
        # by nothing or by the sum of the deltas, without replaying each
        # move.  ``high``: the first place (in the text before the first
        # move) that every move finds at or after its start.
        if before is None:
            self.low, self.high, self.total = at, at, delta
        else:
            self.low = min(at, before.low)
            self.high = max(before.high, at - before.total)
            self.total = before.total + delta
        self._moves: tuple | None = None
        self._spans: dict = {}  # span → moved span, shared by the launches replaying these moves

    def moves(self) -> tuple:
        if self._moves is None:
            out, s = [], self
            while s is not None:
                out.append((s.delta, s.at))
                s = s.before
            self._moves = tuple(reversed(out))
        return self._moves

    def span(self, span: Span) -> Span:
        if span.end < self.low or not self.total and span.start >= self.high:
            return span
        got = self._spans.get(span)
        if got is None and span.start >= self.high:
            got = self._spans[span] = span.shifted(self.total)
        if got is None:
            a, b = span.start, span.end
            for delta, at in self.moves():
                if b < at:
                    continue
                if a >= at:
                    a += delta
                b += delta
            got = self._spans[span] = span if (a, b) == (span.start, span.end) else Span(a, b)
        return got


def _replay_limit(root: Launch) -> int:
    # A place before or after every move is shifted at once, one between
    # them replays the moves; past this many a launch is shifted once (and
    # the chain of moves let go).  Spread per launch, so that not every
    # launch of a file (all moved by the same edits) is shifted on the same
    # keystroke.
    return 128 + (id(root) >> 4) % 128


def _replay(launch: Launch, step: _Step) -> Launch:
    """``launch`` with the moves up to ``step`` applied."""
    moved: dict[int, Word] = {}

    def mv(w: Word) -> Word:
        if w.path is not None:
            return w
        got = moved.get(id(w))
        if got is None:
            to = step.span(w.span)
            got = moved[id(w)] = w if to is w.span else _shift_word(w, to.start - w.span.start)
        return got

    return replace(
        launch,
        entry_span=step.span(launch.entry_span),
        args=[mv(w) for w in launch.args],
        span=step.span(launch.span),
        env=_moved_env(launch.env, step),
        release_hints=[replace(h, span=step.span(h.span)) for h in launch.release_hints],
        problems=[replace(p, span=step.span(p.span)) for p in launch.problems],
        opaque=[mv(w) for w in launch.opaque],
        moved_from=None,
    )


def _moved_env(env, step: _Step):
    """``env`` with the variables the moves shifted, sharing the rest."""
    moved: dict[str, EnvVar] = {}
    for name, v in env.items():
        if v.span is not None:
            to = step.span(v.span)
            if to is not v.span:
                moved[name] = EnvVar(v.name, v.value, to, v.exact)
    if not moved:
        return env
    if isinstance(env, Env):
        env = env.copy()
        env.update(moved)
        return env.freeze()
    return {**env, **moved}


def _shift_span(span: Span, delta: int, at: int = 0) -> Span:
    if span.end < at:
        return span
    if span.start >= at:
        return span.shifted(delta)
    return Span(span.start, span.end + delta)


def _shift_word(w: Word, delta: int) -> Word:
    # Plain constructor calls: dataclasses.replace is several times slower,
    # and every launch after an edit is moved on each keystroke.
    offsets = w.offsets
    return Word(
        w.text,
        w.span.shifted(delta),
        w.base + delta if offsets is None else w.base,
        None if offsets is None else [o + delta for o in offsets],
        w.exact,
        w.note,
        w.role,
        w.node,
        w.path,
    )


def parse_shell(
    text: str,
    *,
    offsets: Sequence[int] | None = None,
    base: int = 0,
    form: Form = Form.SHELL,
    env: dict[str, EnvVar] | None = None,
    expand: str = "shell",
) -> ShellResult:
    """The launches in a shell script (a whole file or one embedded in another form).

    ``offsets[i]`` is the document offset of ``text[i]`` (``len(text) + 1``
    entries); without it ``text[i]`` sits at ``base + i``.  Every span in the
    result is a document span.  ``env``: variables the host form sets (they
    count as exported).  ``expand``: "shell", "k8s" (``$(VAR)`` replaced from
    ``env`` first, ``$$`` escapes) or "github" (``${{ ... }}`` is unknown).

    Never raises: a script that cannot be read yields what could be read.
    """
    try:
        return _parse(text, offsets, base, form, env or {}, expand, None)
    except Exception:  # noqa: BLE001 - this runs on every keystroke
        if os.environ.get("SERVELINT_STRICT"):
            raise
        return ShellResult()


def _parse(
    text: str,
    offsets: Sequence[int] | None,
    base: int,
    form: Form,
    env: dict[str, EnvVar],
    expand: str,
    outer_vars: dict[str, "_Var"] | None,
) -> ShellResult:
    if offsets is not None and len(offsets) < len(text) + 1:
        offsets = list(offsets) + [offsets[-1] if offsets else base] * (len(text) + 1 - len(offsets))
    unknown: list[tuple[int, int]] = []
    lit = src = text
    if expand == "k8s":
        lit, offsets = _k8s_expand(text, offsets, base, env)
        src = lit
    elif expand == "github" and "${{" in text:
        src, unknown = _mask_github(text)
    walker = _Walker(lit, _ascii_only(src), offsets, base, form, env, expand, unknown, outer_vars)
    return walker.run()


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _ascii_only(text: str) -> str:
    """The text bash's grammar sees: every non-ASCII character becomes ``%``.

    tree-sitter-bash's scanner calls ``isalpha``/``isdigit`` on the raw code
    point, which reads outside glibc's tables and crashes the process for
    some characters (tree-sitter-bash#337: ``{`` followed by U+31860).  To
    bash such characters are plain word characters, as ``%`` is (and ``%``
    cannot continue a variable name), so the tree keeps its shape.  Words
    are still read from the original text.  A bonus: byte offsets become
    character offsets.
    """
    if text.isascii():
        return text
    return _NON_ASCII.sub("%", text)


# -- form-level expansion before the shell ---------------------------------------

_K8S_REF = re.compile(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)")


def _k8s_expand(
    text: str, offsets: Sequence[int] | None, base: int, env: dict[str, EnvVar]
) -> tuple[str, list[int]]:
    """Kubernetes dependent variables: ``$(VAR)`` from ``env``, ``$$`` → ``$``."""
    doc = list(offsets) if offsets is not None else list(range(base, base + len(text) + 1))
    out: list[str] = []
    outoff: list[int] = []
    pos = 0
    for m in _K8S_REF.finditer(text):
        out.append(text[pos : m.start()])
        outoff.extend(doc[pos : m.start()])
        if m.group(0) == "$$":
            out.append("$")
            outoff.append(doc[m.start()])
        else:
            var = env.get(m.group(1))
            if var is not None and var.value is not None:
                out.append(var.value)
                outoff.extend([doc[m.start()]] * len(var.value))
            else:  # unresolved references stay as written
                out.append(m.group(0))
                outoff.extend(doc[m.start() : m.end()])
        pos = m.end()
    out.append(text[pos:])
    outoff.extend(doc[pos:])
    return "".join(out), outoff


_GITHUB_EXPR = re.compile(r"\$\{\{.*?\}\}", re.S)


def _mask_github(text: str) -> tuple[str, list[tuple[int, int]]]:
    """Hide ``${{ ... }}`` from bash behind same-length filler; remember where."""
    ranges = [(m.start(), m.end()) for m in _GITHUB_EXPR.finditer(text)]
    chars = list(text)
    for a, b in ranges:
        # ``%`` cannot continue a variable name and means nothing to bash here.
        chars[a:b] = "%" * (b - a)
    return "".join(chars), ranges


# -- variables -----------------------------------------------------------------


@dataclass(slots=True)
class _Var:
    value: MStr | None = None  # None: set, value unknown (or an array)
    items: list[MStr] | None = None  # an array's elements, when known
    item_spans: list[Span] | None = None  # where each element is written
    exported: bool = False
    span: Span | None = None  # where it was set
    note: str | None = None  # why the value is unknown
    is_array: bool = False


# Variables a script commonly gets from its environment: using one unset is
# not a mistake worth a warning.
_ENVIRONMENT = frozenset(
    """HOME USER LOGNAME PWD OLDPWD SHELL PATH TMPDIR TMP LANG TERM HOSTNAME HOST
    RANDOM SECONDS LINENO BASH_SOURCE BASHPID UID EUID PPID SCRATCH WORK
    CONDA_PREFIX CONDA_DEFAULT_ENV VIRTUAL_ENV CUDA_VISIBLE_DEVICES HF_TOKEN
    HUGGING_FACE_HUB_TOKEN HF_HOME OPENAI_API_KEY VLLM_API_KEY XDG_CACHE_HOME
    NODE_RANK MASTER_ADDR MASTER_PORT WORLD_SIZE RANK LOCAL_RANK""".split()
)
_ENVIRONMENT_PREFIXES = (
    "SLURM_", "SKYPILOT_", "GITHUB_", "RUNNER_", "PBS_", "LSB_", "OMPI_", "PMI_",
    "PMIX_", "LWS_", "KUBERNETES_", "SGE_", "CI_", "BUILDKITE_",
)
# An unquoted variable with such a name usually holds several arguments.
_ARGS_NAME = re.compile(r"ARGS|FLAGS|OPTS|OPTIONS|PARAMS|EXTRA", re.I)


def _from_environment(name: str) -> bool:
    return name in _ENVIRONMENT or name.startswith(_ENVIRONMENT_PREFIXES)


# -- expanded words ----------------------------------------------------------------


@dataclass(slots=True)
class _Part:
    m: MStr
    split: bool  # from an unquoted expansion: bash splits it at whitespace
    origin: MStr | None = None  # the value where it was written, if it was


class _Out:
    """One argv word with what the launch needs to know about it."""

    __slots__ = ("word", "_m", "opaque", "unset")

    def __init__(self, word: Word, m: MStr | None = None, opaque: bool = False, unset=()) -> None:
        self.word = word
        self._m = m
        self.opaque = opaque
        # Variables never set, used in this word: (name, where used, index in text).
        self.unset: Sequence = unset

    @property
    def m(self) -> MStr:
        """The word's characters with their document ranges."""
        if self._m is None:
            self._m = mstr_of(self.word)
        return self._m


class _Builder:
    """Collects the pieces of one shell word while it is expanded."""

    __slots__ = (
        "parts", "quoted", "exact", "notes", "unset", "opaque", "elements", "whole", "guarded", "operand",
        "assign",
    )

    def __init__(self, whole: bool = False) -> None:
        self.parts: list[_Part] = []
        self.quoted = False  # a quote was seen: the word exists even if empty
        self.exact = True
        self.notes: list[str] = []
        self.unset: list[tuple[str, Span, int]] = []
        self.opaque: str | None = None  # why the word may be any number of words
        self.elements: list[_Out] | None = None  # an array spread into words
        self.whole = whole  # the word is one expansion (maybe quoted)
        self.guarded = 0  # inside ``${X:+...}``: unset variables are expected
        # Inside the operand of an unquoted ``${X:-...}``: its spaces split words.
        self.operand = 0
        # Building a variable's value: keep where each character was written.
        self.assign = False

    def add(self, m: MStr, split: bool = False, origin: MStr | None = None) -> None:
        if m.text or origin is not None:
            self.parts.append(_Part(m, split, origin))

    def inexact(self, note: str) -> None:
        self.exact = False
        if note not in self.notes:
            self.notes.append(note)

    def length(self) -> int:
        return sum(len(p.m) for p in self.parts)

    def joined(self) -> MStr:
        if len(self.parts) == 1:
            return self.parts[0].m
        text = "".join(p.m.text for p in self.parts)
        starts: list[int] = []
        ends: list[int] = []
        for p in self.parts:
            starts.extend(p.m.starts)
            ends.extend(p.m.ends)
        return MStr(text, starts, ends)


_WORDISH = frozenset(
    {
        "word", "string", "raw_string", "ansi_c_string", "concatenation",
        "simple_expansion", "expansion", "command_substitution", "number",
        "arithmetic_expansion", "process_substitution", "translated_string",
        "brace_expression", "extglob_pattern",
    }
)
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_CONDITIONAL = frozenset(
    {"elif_clause", "else_clause", "case_item", "do_group", "while_statement"}
)
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "sbatch"})
_BUILTINS = frozenset({"source", ".", "read", "mapfile", "readarray", "getopts", "printf", ":", "set"})
_READ_VALUE_OPTS = frozenset({"-p", "-d", "-n", "-N", "-t", "-u", "-i", "-C", "-c", "-O", "-s"})
_SSH_VALUE = frozenset(
    {"-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O",
     "-o", "-p", "-Q", "-R", "-S", "-W", "-w", "-B"}
)

_NOTE_SUBST = "a command's output, only known when the script runs"
_NOTE_GITHUB = "${{ ... }} is filled in by GitHub Actions before the script runs"
_NOTE_TILDE = "~ is the home directory of whoever runs the script"
_NOTE_ARGS = "the script's arguments, passed through when it runs; flags may hide there"


class _Walker:
    """One pass over one script."""

    def __init__(
        self,
        lit: str,
        src: str,
        offsets: Sequence[int] | None,
        base: int,
        form: Form,
        env: dict[str, EnvVar],
        expand: str,
        unknown: list[tuple[int, int]],
        outer_vars: dict[str, _Var] | None,
    ) -> None:
        self.lit = lit  # the text as written (what words are made of)
        self.src = src  # the text bash parses (``${{ }}`` masked)
        self.offs = offsets
        self.base = base
        self.form = form
        self.expand = expand
        self.unknown = unknown
        # The state a snapshot holds (see ``_Journal``): every change is logged.
        self.vars: _Tracked = _Tracked()  # name → _Var
        for name, ev in env.items():
            value = MStr.at(ev.value, ev.span or self._doc_span(0, 0)) if ev.value is not None else None
            note = None if value is not None and ev.exact else f"${name} is only known when the script runs"
            self.vars[name] = _Var(value=value if ev.exact else None, exported=True, span=ev.span, note=note)
        if outer_vars:
            self.vars.update(outer_vars)
        self.frames: list[dict[str, _Var | None]] = []  # saved globals shadowed by ``local``
        self.cond = 0  # depth of conditional code (if/case/loops/&&)
        self.allexport = False
        self.sourced = False  # a file was sourced: any variable may be set
        self.assigned: _Tracked = _Tracked(dict.fromkeys(self.vars, True))  # a set
        # Names that may be exported (checked against ``vars`` when used); a set.
        self.exported: _Tracked = _Tracked((n, True) for n, v in self.vars.items() if v.exported)
        self.functions: _Tracked = _Tracked()  # name → body
        self.called: _Tracked = _Tracked()  # a set
        # ids of the launches read in a function's body: they stand where the
        # body is and hold the variables of where it was called, maybe below.
        self.in_calls: set[int] = set()
        # The exported environment, shared by the launches until it changes
        # (see ``_exported_env``).
        self._shared_env: Env | None = None
        self._env_seen = (0, 0)  # how much of the logs of ``vars`` and ``exported`` it reflects
        self._env_base: dict[str, EnvVar] = {}
        self._env_own: dict[str, EnvVar] = {}
        self._env_hidden: set[str] = set()
        self._env_from: dict[str, _Var] = {}  # the variable each entry was made from
        self.seen_subst: set[int] = set()
        self.launches: list[Launch] = []
        self.problems: list[ParseProblem] = []
        # Launches found in this text itself (not in a script nested in it).
        self.direct: list[Launch] = []
        self.pending_unset: list[tuple[Launch, str, Span]] = []
        # Bumped by every change to the script's state (variables, functions,
        # options): a top-level statement that leaves it unchanged is "pure",
        # and can be re-read on its own after an edit (see ``reparse``).
        self.version = 0
        self.tops: list[_Top] | None = None
        self._data = b""  # ``src`` as tree-sitter reads it
        # At most this many launches are read (0: all); past them, the
        # entry (``vllm serve``) of the next.
        self.max_launches = 0
        self.unread: Span | None = None
        self.stopped_in_walk = False  # ... in a top-level statement (see ``_prefix_end``)
        self.stopped_early = False  # ... and a statement follows the one it stopped in

    # -- positions ---------------------------------------------------------------

    def _doc(self, i: int) -> int:
        if self.offs is None:
            return self.base + i
        if i >= len(self.offs):
            return self.offs[-1] if self.offs else self.base
        return self.offs[i]

    def _doc_span(self, a: int, b: int) -> Span:
        start = self._doc(a)
        return Span(start, max(start, self._doc(b)))

    def _local(self, doc: int) -> int:
        """Local char index of a document offset (inverse of ``_doc``)."""
        if self.offs is None:
            return max(0, min(doc - self.base, len(self.lit)))
        return max(0, bisect_right(self.offs, doc) - 1)

    # ``src`` is pure ASCII (see ``_ascii_only``), so tree-sitter's byte
    # offsets are character offsets.

    def _a(self, node: Node) -> int:
        return node.start_byte

    def _b(self, node: Node) -> int:
        return node.end_byte

    def _span(self, node: Node) -> Span:
        if self.offs is None:
            return Span(self.base + node.start_byte, self.base + node.end_byte)
        return self._doc_span(self._a(node), self._b(node))

    def _text(self, node: Node) -> str:
        return self.lit[node.start_byte : node.end_byte]

    def _verbatim(self, a: int, b: int) -> MStr:
        if self.offs is None:
            s = self.base + a
            return MStr(self.lit[a:b], list(range(s, s + b - a)), list(range(s + 1, s + b - a + 1)))
        return MStr(self.lit[a:b], list(self.offs[a:b]), list(self.offs[a + 1 : b + 1]))

    # -- driver --------------------------------------------------------------------

    def run(self) -> ShellResult:
        self._data = self.src.encode("utf-8", "surrogatepass")
        tree = _parse_tree(self._data)
        root = tree.root_node
        if self.tops is not None and not root.has_error:
            self._walk_tops(root)
        else:
            self.tops = None
            self._stmt(root)
        for name in list(self.functions):
            if self.unread is None and name not in self.called:  # never called: read it with the final globals
                self._call(name)
                self._past_limit()
        self._finish_unset()
        if root.has_error:
            self._attach_errors(root)
            if self.unread is not None:
                # Past the launch limit nothing is checked, syntax neither
                # (the head of the script is all a long one's parse reads).
                self.problems = [p for p in self.problems if p.span.start < self.unread.start]
        for launch in self.direct:
            launch.layout = self._layout(launch)
        self.launches.sort(key=lambda l: (l.span.start, l.span.end))
        refs = [(launch, w) for launch in self.launches for w in config_refs(launch)]
        return ShellResult(self.launches, self.problems, refs)

    def _walk_tops(self, root: Node, journal: bool = True) -> None:
        """Walk the script statement by statement, noting which leave the state alone.

        With ``journal``, each statement that follows a change of state gets
        a snapshot to re-read it from; without, none does (the caller knows
        the state: ``reparse``)."""
        log = _Journal(self) if journal else None
        snap = None
        snap_version = -1
        tops: list[_Top] = []
        children = root.children
        for k, child in enumerate(children):
            if log is not None and snap_version != self.version:
                snap = log.snapshot(self)
                snap_version = self.version
            before = self.version
            if child.is_named:  # not a bare ``&`` or ``;``, which reads as nothing
                self._stmt(child)
            tops.append(_Top(child.start_byte, child.end_byte, self.version == before, snap))
            if self._past_limit():
                # Past the launch limit: nothing after it is checked.
                self.stopped_in_walk = True
                self.stopped_early = any(c.is_named for c in children[k + 1 :])
                break
        self.tops = tops

    def _past_limit(self) -> bool:
        """Whether the walk is past the launch limit.  A launch found some
        other way than as a command of its own (an alias, a script fed to a
        shell) is counted here, after its statement."""
        if self.unread is None and self.max_launches and len(self.launches) > self.max_launches:
            self.unread = self.launches[self.max_launches].entry_span
        return self.unread is not None

    # -- statements ------------------------------------------------------------------

    def _stmt(self, node: Node) -> None:
        t = node.type
        if t == "command":
            self._command(node, [])
        elif t == "redirected_statement":
            self._redirected(node)
        elif t == "variable_assignment":
            self._assign(node, export=self.allexport)
        elif t == "declaration_command":
            joined = self._joined(node)
            self._declare(node, joined[0] if joined else None)
            if joined:
                self._lines_alone(joined[1], [])
        elif t == "unset_command":
            joined = self._joined(node)
            for c in joined[0] if joined else node.named_children:
                self._unset(self._text(c))
            if joined:
                self._lines_alone(joined[1], [])
        elif t == "function_definition":
            self._define(node)
        elif t == "list":
            self._list(node)
        elif t in ("subshell", "pipeline", "command_substitution", "process_substitution"):
            self._isolated(node)
        elif t == "if_statement":
            self._if(node)
        elif t in ("for_statement", "select_statement"):
            self._for(node)
        elif t in _CONDITIONAL or t == "c_style_for_statement":
            self._conditional(node)
        elif t == "ERROR":
            self._error(node)
        elif t in ("comment", "heredoc_body", "test_command", "word", "string"):
            return
        else:
            for c in node.named_children:
                if self._past_limit():
                    break  # past the launch limit (see ``_walk_tops``)
                self._stmt(c)

    def _isolated(self, node: Node) -> None:
        """A subshell: its variable changes do not reach the script."""
        if node.type == "command_substitution":
            if node.start_byte in self.seen_subst:
                return
            self.seen_subst.add(node.start_byte)
        saved = self.vars.copy()
        mark = len(saved.log)
        for c in node.named_children:
            self._stmt(c)
        self.vars = saved
        # Putting the variables back changes them again: log it.
        saved.log.extend(dict.fromkeys(saved.log[mark:]))

    def _conditional(self, node: Node) -> None:
        self.cond += 1
        try:
            for c in node.named_children:
                self._stmt(c)
        finally:
            self.cond -= 1

    def _list(self, node: Node) -> None:
        """``a && b``, ``a || b``: only the first command always runs."""
        kids = node.named_children
        if not kids:
            return
        self._stmt(kids[0])
        self.cond += 1
        try:
            for c in kids[1:]:
                self._stmt(c)
        finally:
            self.cond -= 1

    def _if(self, node: Node) -> None:
        """The condition always runs; the branches may not."""
        depth = self.cond
        try:
            for c in node.children:
                if c.type == "then":
                    self.cond = depth + 1
                elif c.type in ("elif_clause", "else_clause"):
                    self.cond = depth
                    self._conditional(c)
                elif c.is_named:
                    self._stmt(c)
        finally:
            self.cond = depth

    def _for(self, node: Node) -> None:
        name = node.child_by_field_name("variable")
        if name is not None:
            self._set(
                self._text(name),
                _Var(note=f"${self._text(name)} is a loop variable"),
                self._span(name),
            )
        self._conditional(node)

    def _define(self, node: Node) -> None:
        self.version += 1
        name = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name is not None and body is not None:
            self.functions.setdefault(self._text(name), body)

    def _call(self, name: str) -> None:
        """A function's body runs at its first call, seeing the globals then."""
        self.version += 1
        self.called.add(name)
        body = self.functions[name]
        if not isinstance(body, Node):
            # Defined before a snapshot, which keeps only the name (see
            # ``_Journal``): a call changes the state, so a re-read from the
            # snapshot stops here and the whole script is read again.
            return
        self.frames.append({})
        before = len(self.launches)
        try:
            self._stmt(body)
            self.in_calls.update(id(launch) for launch in self.launches[before:])
        finally:
            frame = self.frames.pop()
            for var, old in frame.items():
                if old is None:
                    self.vars.pop(var, None)
                else:
                    self.vars[var] = old

    def _redirected(self, node: Node) -> None:
        redirects = [c for c in node.named_children if c.type in _REDIRECTS]
        body = [c for c in node.named_children if c.type not in _REDIRECTS]
        for c in body:
            if c.type == "command":
                self._command(c, redirects)
            else:
                self._stmt(c)
                if redirects:
                    self._stdin_scripts(None, redirects)
        for r in redirects:
            # ``> log`` then a line starting with a backslash: read as one
            # more file name (see ``_joined_lines``).
            joined = self._joined(r) if r.type == "file_redirect" else None
            if joined:
                self._lines_alone(joined[1], [])

    # -- variables -------------------------------------------------------------------

    def _set(self, name: str, var: _Var, span: Span | None, *, local: bool = False) -> None:
        self.version += 1
        self.assigned.add(name)
        old = self.vars.get(name)
        if local and self.frames:
            frame = self.frames[-1]
            if name not in frame:
                frame[name] = old
        elif old is not None:
            var.exported = var.exported or old.exported
            if self.cond and not _same_value(old, var):
                # Set differently on different paths: no single value to trust.
                var = _Var(
                    exported=var.exported,
                    span=span,
                    note=f"${name} is set to different values on different paths",
                    is_array=var.is_array,
                )
        var.exported = var.exported or self.allexport
        var.span = var.span or span
        self.vars[name] = var
        if var.exported:
            self.exported.add(name)

    def _unset(self, name: str) -> None:
        self.version += 1
        if self.cond:
            old = self.vars.get(name)
            if old is not None:
                self.vars[name] = _Var(exported=old.exported, span=old.span, note=f"${name} may be unset")
            return
        self.vars.pop(name, None)

    def _assign(self, node: Node, *, export: bool = False, local: bool = False) -> None:
        kids = node.children
        if not kids:
            return
        target = kids[0]
        if target.type == "subscript":  # ``A[1]=x``: keep it simple, the array is unknown
            arr = target.named_children[0] if target.named_children else target
            name = self._text(arr)
            self._set(name, _Var(is_array=True, note=f"${name} is changed element by element"), self._span(node))
            return
        name = self._text(target)
        append = len(kids) > 1 and kids[1].type == "+="
        value = kids[2] if len(kids) > 2 else None
        span = self._span(node)
        if value is not None and value.type == "array":
            var = self._array_value(name, value)
        elif value is None:
            var = _Var(value=MStr.empty())
        else:
            b = _Builder()
            b.assign = True
            self._add(value, b, quoted=True)
            m = b.joined()
            if b.exact:
                var = _Var(value=m)
            else:
                why = f" ({b.notes[0]})" if b.notes else ""
                var = _Var(note=f"${name} is only known when the script runs{why}")
        if append:
            old = self.vars.get(name)
            var = _append(old, var, name)
        var.exported = export
        self._set(name, var, span, local=local)

    def _array_value(self, name: str, node: Node) -> _Var:
        items: list[MStr] = []
        spans: list[Span] = []
        for c in node.named_children:
            if c.type == "comment":
                continue
            for out in self._words(c):
                if out.opaque or not out.word.exact:
                    return _Var(is_array=True, note=f"${{{name}[@]}} holds values only known when the script runs")
                items.append(out.m)
                spans.append(out.word.span)
        return _Var(items=items, item_spans=spans, is_array=True)

    def _declare(self, node: Node, named: list[Node] | None = None) -> None:
        """``export``/``local``/``declare``...; ``named``: its named children
        when not all are its own (see ``_joined``)."""
        kids = node.children
        keyword = kids[0].type if kids else ""
        named = node.named_children if named is None else named
        opts = {self._text(c) for c in named if c.type == "word"}
        export = keyword == "export" or any(o.startswith("-") and "x" in o for o in opts)
        local = keyword == "local" or (keyword in ("declare", "typeset") and "-g" not in opts and bool(self.frames))
        for c in named:
            if c.type in ("command_substitution", "simple_expansion", "expansion", "concatenation", "string"):
                # ``export $(grep -v '^#' .env | xargs)``: names we cannot see.
                self.version += 1
                self.sourced = True
            elif c.type == "variable_assignment":
                self._assign(c, export=export or self.allexport, local=local)
            elif c.type == "variable_name":
                name = self._text(c)
                old = self.vars.get(name)
                if old is not None:
                    if export:
                        # A new object: snapshots of ``vars`` (subshells) share the old one.
                        self.version += 1
                        self.vars[name] = replace(old, exported=True)
                        self.exported.add(name)
                    if local:
                        self._set(name, _Var(note=f"${name} is declared without a value"), self._span(c), local=True)
                else:
                    self._set(
                        name,
                        _Var(exported=export, note=f"${name} comes from the environment"),
                        self._span(c),
                        local=local,
                    )

    def _builtin(self, name: str, kids: list[Node], a: int, b: int) -> bool:
        """Commands that change variables. True when the command (its named
        children ``kids``, at ``[a, b)``) was one."""
        if name not in _BUILTINS:
            return False
        if name in ("source", "."):
            self.version += 1
            self.sourced = True
            return True
        args = [c for c in kids if c.type in _WORDISH]
        if name in ("read", "mapfile", "readarray", "getopts", "printf"):
            texts = [self._text(c) for c in args]
            targets: list[str] = []
            if name == "getopts" and len(texts) >= 2:
                targets = [texts[1]]
            elif name == "printf":
                if "-v" in texts and texts.index("-v") + 1 < len(texts):
                    targets = [texts[texts.index("-v") + 1]]
            else:
                skip = False
                for t in texts:
                    if skip:  # the value of an option such as ``-p PROMPT``
                        skip = False
                    elif t in _READ_VALUE_OPTS:
                        skip = True
                    elif not t.startswith("-"):
                        targets.append(t)
            for t in targets:
                if re.fullmatch(r"[A-Za-z_]\w*", t):
                    self._set(t, _Var(note=f"${t} is read when the script runs"), self._doc_span(a, b))
            return name != "printf" or bool(targets)
        if name == ":":
            # ``: "${X:=default}"`` is how scripts set defaults.
            for c in args:
                self._words(c)
            return True
        if name == "set":
            self.version += 1
            for c in args:
                t = self._text(c)
                if t.startswith("-") and "a" in t[1:] and not t.startswith("--"):
                    self.allexport = True
                elif t.startswith("+") and "a" in t[1:]:
                    self.allexport = False
                elif t == "allexport":
                    self.allexport = True
            return True
        return False

    # -- commands ----------------------------------------------------------------------

    def _command(self, node: Node, redirects: list[Node]) -> None:
        joined = self._joined(node)
        if joined is None:
            self._simple_command(node.named_children, node.start_byte, node.end_byte, redirects)
            return
        own, lines = joined
        if own:
            # A comment ending its line is not part of the command.
            end = next((c.end_byte for c in reversed(own) if c.type != "comment"), own[-1].end_byte)
            self._simple_command(own, node.start_byte, end, [])
        self._lines_alone(lines, redirects)

    def _joined(self, node: Node) -> tuple[list[Node], list[tuple[int, int, int]]] | None:
        """``node``'s own named children and the lines tree-sitter-bash joined
        to it (see ``_joined_lines``), or None when it joined none."""
        a = node.start_byte
        if self.src.find("\n", a, node.end_byte) < 0:
            return None
        kids = node.named_children
        lines = self._joined_lines(kids, a)
        return (kids[: lines[0][0]], lines) if lines else None

    def _lines_alone(self, lines: list[tuple[int, int, int]], redirects: list[Node]) -> None:
        """Each joined line read alone; ``redirects`` (of the statement they
        were joined in) go with the last."""
        for k, (_, start, end) in enumerate(lines):
            self._line_alone(start, end, redirects if k == len(lines) - 1 else [])

    def _joined_lines(self, kids: list[Node], start: int) -> list[tuple[int, int, int]]:
        """Lines tree-sitter-bash joined to the command on the line above.

        It reads a line starting with a backslash (``\\"x``) as more words of
        the command above, the line break included in the first of them (a
        grammar bug); to a shell the line break ends that command and the
        line is a command of its own.  No word of a command can start after
        a line break that no backslash continues.  Each joined line as (index
        of its first child, where it starts, where it ends)."""
        src = self.src
        starts: list[tuple[int, int]] = []
        for k, c in enumerate(kids):
            at = c.start_byte
            while at < c.end_byte and src[at] in "\r\n":
                at += 1
            gap = src[kids[k - 1].end_byte if k else start : at].replace("\\\r\n", "").replace("\\\n", "")
            if "\n" in gap:
                starts.append((k, at))
        return [(k, at, kids[starts[n + 1][0] - 1].end_byte if n + 1 < len(starts) else kids[-1].end_byte)
                for n, (k, at) in enumerate(starts)]

    def _line_alone(self, a: int, b: int, redirects: list[Node]) -> None:
        """Read ``[a, b)`` (one line ``_joined_lines`` found) as the statement it is."""
        tree = _parse_range(self._data, self.src, a, b)
        for c in tree.root_node.children:
            if c.type == "command":
                self._simple_command(c.named_children, c.start_byte, c.end_byte, redirects)
            elif c.is_named:
                self._stmt(c)

    def _simple_command(self, kids: list[Node], a: int, b: int, redirects: list[Node]) -> None:
        """The command made of ``kids`` (named children), at ``[a, b)``."""
        # The ``name`` field: the grammar has no other ``command_name`` (and
        # this is cheaper than asking for the field by name).
        name_node = next((c for c in kids if c.type == "command_name"), None)
        if name_node is None:
            for c in kids:  # ``A=1`` alone on the line above a joined one
                if c.type == "variable_assignment":
                    self._stmt(c)
            return
        name = self._text(name_node)
        if self._builtin(name, kids, a, b):
            return
        if name in self.functions and name not in self.called:
            self._call(name)
        if not (could_start_launch(name) or "$" in name):
            # Most commands: only a script fed to them, or a launch inside a
            # ``$(...)`` of theirs, can matter.
            text = self.lit[a:b]
            if redirects or "vllm" in text:
                prefix, args, stdin = self._command_parts(kids, redirects)
                if "$(" in text or "`" in text:
                    for c in args:
                        self._walk_substitutions(c)
                if stdin:
                    self._stdin_scripts([name_node] + args, stdin)
            return
        prefix, args, stdin = self._command_parts(kids, redirects)
        args.insert(0, _name_word(name_node))
        words, special = self._argv(args)
        env = self._env(prefix)
        launches = find_launches(words, form=self.form, env=env, expand=self._inner_expand())
        if launches and self.max_launches and len(self.launches) >= self.max_launches:
            # Past the limit: the walk stops here (reading the rest would be
            # most of the parse of a long script, for launches not checked).
            if self.unread is None:
                self.unread = launches[0].entry_span
            return
        for launch in launches:
            self._adopt(launch, a, b, words, special)
        if stdin and not launches:
            self._stdin_scripts(args, stdin, words)

    def _command_parts(self, kids: list[Node], redirects: list[Node]) -> tuple[list[Node], list[Node], list[Node]]:
        """(env prefixes, arguments, redirections) of a command node's named children."""
        prefix: list[Node] = []
        args: list[Node] = []
        stdin: list[Node] = list(redirects)
        seen_name = False
        for c in kids:
            t = c.type
            if t == "variable_assignment" and not seen_name:
                prefix.append(c)
            elif t == "command_name":
                seen_name = True
            elif t in _REDIRECTS:
                stdin.append(c)
            elif t != "comment":
                args.append(c)
        return prefix, args, stdin

    def _walk_substitutions(self, node: Node) -> None:
        if node.type in ("command_substitution", "process_substitution"):
            self._isolated(node)
            return
        for c in node.named_children:
            self._walk_substitutions(c)

    def _inner_expand(self) -> str:
        return "github" if self.expand == "github" else "shell"

    def _env(self, prefix: list[Node]) -> Env:
        """The environment a command sees: exported variables and its prefixes."""
        if not prefix:
            return self._exported_env()
        env = Env.over(self._exported_env())
        for p in prefix:
            kids = p.children
            if not kids or kids[0].type != "variable_name":
                continue
            name = self._text(kids[0])
            value = kids[2] if len(kids) > 2 else None
            if value is None:
                env[name] = EnvVar(name, "", self._span(p), True)
                continue
            b = _Builder()
            self._add(value, b, quoted=True)
            env[name] = EnvVar(name, b.joined().text if b.exact else None, self._span(p), b.exact)
        return env

    def _adopt(self, launch: Launch, a: int, b: int, words: list[Word], special: dict[int, _Out]) -> None:
        """Finish a launch found in the command at ``[a, b)`` of this text.

        ``special``: the words that may hide several (opaque) or use unset
        variables, by id (see ``_argv``)."""
        self.launches.append(launch)
        if not words or launch.span.start != words[0].span.start:
            self._explain_hidden(launch)
            return  # found inside a nested script, which finished it
        launch.span = cover(self._doc_span(a, b), launch.span)
        self.direct.append(launch)
        if not special:
            return
        args: list[Word] = []
        for w in launch.args:
            out = special.get(id(w))
            if out is not None and out.opaque:
                launch.opaque.append(w)
                continue
            args.append(w)
            if out is not None and out.unset:
                self._note_unset(launch, w, out)
        launch.args = args

    def _explain_hidden(self, launch: Launch) -> None:
        """An inner script (``sh -c '...'``) sees only exported variables."""
        for p in launch.problems:
            name = p.data.get("variable") if p.code == problems.UNSET_VARIABLE else None
            if name and name in self.vars and not self.vars[name].exported:
                p.message = (
                    f"${name} is set in this file but not exported, so the inner "
                    "script does not see it: vLLM would receive an empty value"
                )

    def _note_unset(self, launch: Launch, w: Word, out: _Out) -> None:
        """Unset variables matter in a value or the model, not in a flag's name."""
        eq = w.text.find("=") if w.text.startswith("-") else -1
        for name, span, index in out.unset:
            if w.text.startswith("-") and (eq < 0 or index <= eq):
                continue
            self.pending_unset.append((launch, name, span))

    def _finish_unset(self) -> None:
        if self.sourced:
            return
        for launch, name, span in self.pending_unset:
            if name in self.assigned:
                continue
            launch.problems.append(
                ParseProblem(
                    problems.UNSET_VARIABLE,
                    f"${name} is not set in this file and has no default: "
                    "vLLM would receive an empty value",
                    span,
                    "warning",
                    {"variable": name},
                )
            )

    def _layout(self, launch: Launch) -> str:
        if not launch.args:
            return "single-line"
        a = self._local(launch.entry_span.start)
        b = self._local(launch.args[-1].span.end)
        src = self.src
        return "multiline-backslash" if src.find("\\\n", a, b) >= 0 or src.find("\\\r\n", a, b) >= 0 else "single-line"

    # -- scripts inside scripts ---------------------------------------------------------

    def _stdin_scripts(self, kids: list[Node] | None, redirects: list[Node], words: list[Word] | None = None) -> None:
        """A heredoc or here-string fed to a shell is a script; one fed to ``cat`` is data."""
        bodies = []
        for r in redirects:
            if r.type == "heredoc_redirect":
                body = next((c for c in r.named_children if c.type == "heredoc_body"), None)
                start = next((c for c in r.named_children if c.type == "heredoc_start"), None)
                if body is not None and "vllm" in self._text(body):
                    quoted = start is not None and any(q in self._text(start) for q in "'\"\\")
                    bodies.append((self._a(body), self._b(body), not quoted))
            elif r.type == "herestring_redirect":
                for c in r.named_children:
                    if "vllm" in self._text(c):
                        bodies.append(("word", c, None))
        if not bodies or kids is None:
            return
        if words is None:
            words = []
            for c in kids:
                if c.type == "command_name" or (c.type in _WORDISH):
                    words.extend(o.word for o in self._words(_name_word(c)))
        if not _reads_script(words):
            return
        for item in bodies:
            if item[0] == "word":
                for out in self._words(item[1]):
                    self._nested(out.m, self._exported_env(), None)
            else:
                a, b, expands = item
                text = MStr(self.lit[a:b], [self._doc(i) for i in range(a, b)], [self._doc(i + 1) for i in range(a, b)])
                # An unquoted heredoc is expanded by this shell first: the inner
                # script sees this script's variables, exported or not.
                inherited = {k: replace(v) for k, v in self.vars.items()} if expands else None
                self._nested(text, self._exported_env(), inherited)

    def _exported_env(self) -> Env:
        """The exported variables, as one environment shared until they change.

        Only the names changed since the last call are looked at (the logs
        of ``vars`` and ``exported`` say which); the environment is a small
        set of own entries over a base shared with earlier ones, flattened
        into a new base when the own entries outgrow a few dozen."""
        vlog, elog = self.vars.log, self.exported.log
        seen_v, seen_e = self._env_seen
        if self._shared_env is not None and seen_v == len(vlog) and seen_e == len(elog):
            return self._shared_env
        names = dict.fromkeys(vlog[seen_v:])
        names.update(dict.fromkeys(elog[seen_e:]))
        if self._shared_env is None:
            names.update(dict.fromkeys(self.exported))
        base, own, hidden, made_from = self._env_base, self._env_own, self._env_hidden, self._env_from
        for name in names:
            var = None
            if name in self.exported:
                var = self.vars.get(name)
                if var is None or not var.exported:
                    # No longer exported (unset, or shadowed by a ``local``).
                    self.exported.pop(name)
                    var = None
            if made_from.get(name) is var:
                continue
            if var is None:
                del made_from[name]
                own.pop(name, None)
                if name in base:
                    hidden.add(name)
            else:
                made_from[name] = var
                own[name] = _env_var(name, var)
                hidden.discard(name)
        self._env_seen = (len(vlog), len(elog))
        if len(own) + len(hidden) > max(32, isqrt(len(base))):
            flat = {n: v for n, v in base.items() if n not in hidden}
            flat.update(own)
            self._env_base = base = flat
            own.clear()
            hidden.clear()
        self._shared_env = Env(own, base, hidden).freeze()
        return self._shared_env

    def _nested(self, script: MStr, env: dict[str, EnvVar], outer_vars: dict[str, _Var] | None) -> None:
        offsets = script.offsets() or [self._doc(0)]
        result = _parse(script.text, offsets, 0, self.form, env, self._inner_expand(), outer_vars)
        for launch in result.launches:
            self._explain_hidden(launch)
        self.launches.extend(result.launches)
        self.problems.extend(result.problems)

    # -- broken input ------------------------------------------------------------------

    def _error(self, node: Node) -> None:
        """Inside an ERROR node: still read what looks like commands."""
        run: list[Node] = []
        for c in node.children:
            if c.type == "command_name":
                self._pseudo_command(run)
                run = [c]
            elif run and c.type in _WORDISH:
                run.append(c)
            else:
                self._pseudo_command(run)
                run = []
                if c.is_named and c.type not in _WORDISH:
                    self._stmt(c)
        self._pseudo_command(run)

    def _pseudo_command(self, run: list[Node]) -> None:
        if not run:
            return
        name = self._text(run[0])
        if not (could_start_launch(name) or "$" in name):
            return
        words, special = self._argv([_name_word(run[0])] + run[1:])
        a, b = self._a(run[0]), self._b(run[-1])
        for launch in find_launches(words, form=self.form, env=self._env([]), expand=self._inner_expand()):
            self._adopt(launch, a, b, words, special)

    def _attach_errors(self, root: Node) -> None:
        """Syntax errors that touch a launch become its problems.

        Each error is pinned on its culprit (the quote or ``$(`` left open...).
        A launch is affected when the culprit sits on the launch's own lines,
        or when the launch lies in what the open construct swallowed.
        """
        culprits: list[_Culprit] = []
        stack = [root]
        while stack:
            n = stack.pop()
            if n.is_missing:
                culprits.append(self._missing(n))
            elif n.is_error:
                culprits.extend(self._error_culprits(n))
            else:
                stack.extend(c for c in n.children if c.has_error or c.is_missing)
        reach = []
        for launch in self.launches:
            la = self._local(launch.span.start)
            lb = self._local(launch.span.end)
            line_end = self.src.find("\n", lb)
            reach.append((launch, la, len(self.src) if line_end < 0 else line_end))
        seen: set[tuple[str, Span]] = set()
        for c in culprits:
            if (c.message, c.span) in seen:
                continue
            seen.add((c.message, c.span))
            hit = False
            for launch, la, lend in reach:
                if la <= c.start <= lend or c.start <= la < c.scope_end:
                    launch.problems.append(ParseProblem(problems.PARSE_ERROR, c.message, c.span, "error"))
                    hit = True
            if not hit and "vllm" in self.src[c.start : c.scope_end]:
                self.problems.append(ParseProblem(problems.PARSE_ERROR, c.message, c.span, "error"))

    def _error_culprits(self, n: Node) -> list["_Culprit"]:
        a, b = self._a(n), self._b(n)
        text = self.src[a:b]
        if not text.replace("\\", "").strip():
            return []  # a trailing ``\`` at the end of the file: bash accepts it
        # An open quote swallows everything after it, closers included, so
        # when there is one it is the only culprit worth naming.
        quotes: list[_Culprit] = []
        for e in _error_nodes(n):
            et = self.src[self._a(e) : self._b(e)]
            stripped = et.lstrip()
            if stripped.startswith("'") and et.count("'") % 2 == 1:
                qa = self._a(e) + len(et) - len(stripped)
                quotes.append(_Culprit(qa, b, "unterminated single quote", self._doc_span(qa, qa + 1)))
            dq = [c for c in e.children if c.type == '"' and not c.is_named]
            if len(dq) % 2 == 1:
                q = dq[-1]
                quotes.append(_Culprit(self._a(q), b, "unterminated double quote", self._span(q)))
        if quotes:
            return quotes
        out: list[_Culprit] = []
        open_: list[Node] = []
        for c in n.children:
            if c.is_missing:
                out.append(self._missing(c))
            elif c.type in _OPENERS:
                open_.append(c)
            elif open_ and _OPENERS.get(open_[-1].type) == c.type:
                open_.pop()
        for c in open_:
            what = c.type
            closer = _OPENERS[what]
            message = f"`{what}` without `{closer}`" if what.isalpha() else f"unclosed `{what}`"
            out.append(_Culprit(self._a(c), b, message, self._span(c)))
        if out:
            return out
        line_end = self.src.find("\n", a)
        end = b if line_end < 0 else min(b, max(line_end, a + 1))
        first = text.strip().split()[0] if text.strip() else text
        return [_Culprit(a, end, f"syntax error near `{first[:20]}`", self._doc_span(a, end))]

    def _missing(self, n: Node) -> "_Culprit":
        """A token tree-sitter had to invent (``MISSING``), named by what it closes."""
        parent = n.parent
        opener = parent.children[0] if parent is not None and parent.children else n
        pa = self._a(opener)
        end = max(self._b(n), pa)
        t = n.type
        if t == "heredoc_end" and parent is not None:
            start = next((c for c in parent.children if c.type == "heredoc_start"), opener)
            delimiter = self._text(start).strip("'\"\\")
            return _Culprit(
                pa, end, f"unterminated heredoc: no line `{delimiter}` ends it",
                self._span(opener).cover(self._span(start)),
            )
        if t == '"':
            message = "unterminated double quote"
        elif t in (")", "}", "))", "]]", "]", "`"):
            message = f"unclosed `{self._text(opener)}`"
        elif t in ("fi", "done", "esac", "then", "do"):
            message = f"`{self._text(opener)}` without `{t}`"
        else:
            message = f"missing `{t}`"
        return _Culprit(pa, end, message, self._span(opener))

    # -- words -------------------------------------------------------------------------

    def _words(self, node: Node) -> list[_Out]:
        """The argv words one shell word node expands to (zero, one or several)."""
        fast = self._plain_word(node)
        if fast is not None:
            return [_Out(fast)]
        b = _Builder(whole=_is_whole_expansion(node))
        self._add(node, b, quoted=False)
        return self._finish_word(b, node)

    def _argv(self, nodes: list[Node]) -> tuple[list[Word], dict[int, _Out]]:
        """The argv of a command's word nodes, and by id the words ``_adopt``
        must look at again (opaque, or using unset variables).

        The per-command path of every script: most words are plain, and
        need no ``_Out`` around them."""
        words: list[Word] = []
        special: dict[int, _Out] = {}
        plain = self._plain_word
        for c in nodes:
            w = plain(c)
            if w is not None:
                words.append(w)
                continue
            for out in self._words(c):
                words.append(out.word)
                if out.opaque or out.unset:
                    special[id(out.word)] = out
        return words, special

    def _plain_word(self, node: Node) -> Word | None:
        """The common case without a builder: a literal word, ``"text"`` or ``'text'``.

        Most words of a script are written as they are received; reading
        them through the general path costs most of a parse.
        """
        t = node.type
        a, b = node.start_byte, node.end_byte
        if t in ("word", "number"):
            ia, ib = a, b
        elif t == "raw_string":
            ia, ib = a + 1, b - 1
        elif t == "string":
            kids = node.children
            if len(kids) == 2:
                ia = ib = a + 1
            elif len(kids) == 3 and kids[1].type == "string_content":
                ia, ib = kids[1].start_byte, kids[1].end_byte
            else:
                return None
            if ia != a + 1 or ib != b - 1:
                return None
        else:
            return None
        if ib < ia:
            return None
        text = self.lit[ia:ib]
        if "\\" in text or (t == "word" and text.startswith("~")) or self.unknown:
            return None
        if self.offs is None:
            base = self.base
            return Word(text, Span(base + a, base + b), base + ia)
        offs = self.offs
        span = Span(offs[a], max(offs[a], offs[b]))
        return Word(text, span, -1, list(offs[ia : ib + 1]))

    def _finish_word(self, b: _Builder, node: Node) -> list[_Out]:
        span = self._span(node)
        if b.opaque is not None:
            m = self._verbatim(self._a(node), self._b(node))
            return [_Out(make_word(m, span, exact=False, note=b.opaque), m, opaque=True)]
        if b.elements is not None and not b.parts:
            return b.elements
        note = "; ".join(b.notes) if b.notes else None
        parts = b.parts
        if not any(p.split and _has_space(p.m.text) for p in parts):
            m = b.joined()
            if not m.text and not b.quoted and not b.unset:
                return []  # an unquoted empty expansion is no word at all
            return [_Out(make_word(m, span, exact=b.exact, note=note), m, unset=list(b.unset))]
        return self._split(b, note)

    def _split(self, b: _Builder, note: str | None) -> list[_Out]:
        """Word splitting of unquoted values (``$FLAGS`` holding ``--a 1 --b``)."""
        if len(b.parts) == 1 and b.parts[0].origin is not None and b.parts[0].origin.monotonic():
            m = b.parts[0].origin  # a value written in one place: point at it
            sep = [ch in " \t\n" for ch in m.text]
        else:
            m = b.joined()
            sep = []
            for p in b.parts:
                sep.extend((p.split and ch in " \t\n") for ch in p.m.text)
        outs: list[_Out] = []
        k, n = 0, len(m.text)
        while k < n:
            if sep[k]:
                k += 1
                continue
            j = k
            while j < n and not sep[j]:
                j += 1
            piece = m.slice(k, j)
            unset = [(nm, sp, ix - k) for nm, sp, ix in b.unset if k <= ix < j]
            outs.append(_Out(make_word(piece, None, exact=b.exact, note=note), piece, unset=unset))
            k = j
        return outs

    def _add(self, node: Node, b: _Builder, quoted: bool) -> None:
        t = node.type
        if t in ("word", "number", "extglob_pattern", "regex"):
            a = self._a(node)
            if not quoted and self.lit.startswith("~", a) and b.length() == 0:
                b.inexact(_NOTE_TILDE)
            b.add(self._literal(a, self._b(node), "word", b), split=b.operand > 0 and not quoted)
        elif t == "string":
            b.quoted = True
            self._add_string(node, b)
        elif t == "raw_string":
            b.quoted = True
            b.add(self._literal(self._a(node) + 1, self._b(node) - 1, "raw", b))
        elif t == "ansi_c_string":
            b.quoted = True
            b.add(self._ansi_c(self._a(node) + 2, self._b(node) - 1))
        elif t == "concatenation":
            self._add_children(node, b, quoted, "word")
        elif t in ("simple_expansion", "expansion"):
            self._add_expansion(node, b, quoted)
        elif t == "command_substitution":
            self._isolated(node)
            self._add_unknown(node, b, _NOTE_SUBST)
        elif t == "arithmetic_expansion":
            value = self._arith(node)
            if value is None:
                self._add_unknown(node, b, "an arithmetic result only known when the script runs")
            else:
                b.add(MStr.at(value, self._span(node)))
        elif t == "process_substitution":
            self._add_unknown(node, b, "a file made when the script runs")
        elif t == "brace_expression":
            self._add_unknown(node, b, "a brace expansion (several words)")
        elif t == "command_name":
            for c in node.named_children:
                self._add(c, b, quoted)
        else:
            b.add(self._literal(self._a(node), self._b(node), "word", b))

    def _add_children(self, node: Node, b: _Builder, quoted: bool, gap_mode: str) -> None:
        """Children in order; text between them is literal in ``gap_mode``."""
        pos = self._a(node)
        for c in node.children:
            ca = self._a(c)
            if ca > pos:
                b.add(self._literal(pos, ca, gap_mode, b), split=b.operand > 0 and not quoted)
            self._add(c, b, quoted)
            pos = max(pos, self._b(c))
        end = self._b(node)
        if end > pos:
            b.add(self._literal(pos, end, gap_mode, b), split=b.operand > 0 and not quoted)

    def _add_string(self, node: Node, b: _Builder) -> None:
        kids = node.children
        a, end = self._a(node), self._b(node)
        if kids and kids[0].type == '"':
            a = self._b(kids[0])
        if len(kids) > 1 and kids[-1].type == '"':
            end = self._a(kids[-1])
        pos = a
        for c in kids:
            if c.type == '"' and not c.is_named:
                continue
            ca = self._a(c)
            if ca > pos:
                b.add(self._literal(pos, ca, "dq", b))
            if c.type == "string_content":
                b.add(self._literal(ca, self._b(c), "dq", b))
            else:
                self._add(c, b, quoted=True)
            pos = max(pos, self._b(c))
        if end > pos:
            b.add(self._literal(pos, end, "dq", b))

    def _literal(self, a: int, b: int, mode: str, builder: _Builder | None = None) -> MStr:
        """Source text ``[a, b)`` as bash reads it in ``mode`` (word/dq/raw)."""
        if self.unknown and builder is not None:
            for ua, ub in self.unknown:
                if ua < b and a < ub:
                    builder.inexact(_NOTE_GITHUB)
        text = self.lit[a:b]
        if mode == "raw" or "\\" not in text:
            return self._verbatim(a, b)
        chars: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        k = a
        while k < b:
            ch = self.lit[k]
            if ch == "\\" and k + 1 < b:
                nxt = self.lit[k + 1]
                if nxt == "\n":  # a line continuation disappears
                    k += 2
                    continue
                if mode == "word" or nxt in '$`"\\':
                    chars.append(nxt)
                    starts.append(self._doc(k))
                    ends.append(self._doc(k + 2))
                    k += 2
                    continue
            chars.append(ch)
            starts.append(self._doc(k))
            ends.append(self._doc(k + 1))
            k += 1
        return MStr("".join(chars), starts, ends)

    def _ansi_c(self, a: int, b: int) -> MStr:
        """``$'...'``: C escapes."""
        simple = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "a": "\a",
                  "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "v": "\v", "?": "?"}
        chars, starts, ends = [], [], []
        k = a
        while k < b:
            ch = self.lit[k]
            if ch == "\\" and k + 1 < b:
                nxt = self.lit[k + 1]
                if nxt in simple:
                    chars.append(simple[nxt])
                    starts.append(self._doc(k))
                    ends.append(self._doc(k + 2))
                    k += 2
                    continue
                m = re.match(r"x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|([0-7]{1,3})", self.lit[k + 1 : b])
                if m:
                    chars.append(chr(int(m.group(1) or m.group(2) or m.group(3), 8 if m.group(3) else 16)))
                    starts.append(self._doc(k))
                    ends.append(self._doc(k + 1 + m.end()))
                    k += 1 + m.end()
                    continue
            chars.append(ch)
            starts.append(self._doc(k))
            ends.append(self._doc(k + 1))
            k += 1
        return MStr("".join(chars), starts, ends)

    def _add_unknown(self, node: Node, b: _Builder, note: str, unset: str | None = None) -> None:
        """A value not known from the file: keep what was written, mark the word."""
        if unset is not None:
            b.unset.append((unset, self._span(node), b.length()))
        b.inexact(note)
        b.add(self._verbatim(self._a(node), self._b(node)))

    # -- parameter expansion ---------------------------------------------------------------

    def _add_expansion(self, node: Node, b: _Builder, quoted: bool) -> None:
        kids = node.children
        prefix = ""
        name_node: Node | None = None
        op = ""
        operand: list[Node] = []
        if node.type == "simple_expansion":
            name_node = kids[1] if len(kids) > 1 else None
        else:
            k = 1
            if k < len(kids) and not kids[k].is_named and kids[k].type in ("#", "!"):
                prefix = kids[k].type
                k += 1
            if k < len(kids) and kids[k].type in ("variable_name", "special_variable_name", "subscript"):
                name_node = kids[k]
                k += 1
            if k < len(kids) and not kids[k].is_named and kids[k].type != "}":
                op = kids[k].type
                k += 1
            operand = [c for c in kids[k:] if c.type != "}"]
        if name_node is None:
            self._add_unknown(node, b, "an expansion servelint does not read")
            return
        name, index = self._name_and_index(name_node)
        span = self._span(node)

        if name in ("@", "*"):
            if b.whole:
                b.opaque = _NOTE_ARGS
            self._add_unknown(node, b, _NOTE_ARGS)
            return
        state, value, array, why = self._lookup(name)
        if index is not None:
            state, value, why = self._index(name, state, array, index, b, span, op, prefix)
            if state == "done":
                return
        if prefix == "#":
            if state == "known":
                b.add(MStr.at(str(len(value.text)), span))
            else:
                self._add_unknown(node, b, why or f"the length of ${name}")
            return
        if prefix == "!":
            self._add_unknown(node, b, f"${{!{name}}} is an indirect reference")
            return
        if op in (":-", "-", ":=", "="):
            empty = state == "known" and value.text == ""
            if state != "known" or (empty and op.startswith(":")):
                start = b.length()
                self._add_operand(operand, b, quoted)
                if op in (":=", "=") and state != "known":
                    dflt = b.joined().slice(start)
                    self._set(name, _Var(value=dflt), span)
                return
        elif op in (":+", "+"):
            present = state == "known" and (value.text != "" or op == "+")
            if state == "known" and not present:
                return
            if state != "known":
                b.inexact(f"present only when ${name} is set")
            b.guarded += 1
            self._add_operand(operand, b, quoted)
            b.guarded -= 1
            return
        elif op in (":?", "?"):
            if state != "known":
                self._add_unknown(node, b, f"${name} must be set by whoever runs the script")
                return
        elif op:
            if state == "known":
                result = _transform(value.text, op, [self._text(c) for c in operand])
                if result is not None:
                    self._add_value(b, MStr.at(result, span), None, quoted)
                    return
            if state == "unset":
                self._unset_use(node, b, name, quoted)
            else:
                self._add_unknown(node, b, why or f"${{{name}{op}...}} is computed when the script runs")
            return
        if state == "known":
            self._add_value(b, MStr.at(value.text, span), value, quoted)
        elif state == "unset":
            self._unset_use(node, b, name, quoted)
        else:
            if not quoted and b.whole and _ARGS_NAME.search(name):
                b.opaque = why or f"${name} may hold several arguments"
            self._add_unknown(node, b, why or f"${name} is only known when the script runs")

    def _add_operand(self, operand: list[Node], b: _Builder, quoted: bool) -> None:
        """The words of ``${X:-a b}`` / ``${X:+--flag "$V"}``, spaces included."""
        b.operand += 1
        try:
            pos = self._a(operand[0]) if operand else 0
            for c in operand:
                ca = self._a(c)
                if ca > pos:
                    b.add(self._literal(pos, ca, "word", b), split=not quoted)
                self._add(c, b, quoted)
                pos = self._b(c)
        finally:
            b.operand -= 1

    def _add_value(self, b: _Builder, at_use: MStr, origin: MStr | None, quoted: bool) -> None:
        if b.assign and origin is not None:
            # ``B="$A --x"``: B's characters still point where A's were written.
            b.add(origin)
        elif quoted:
            b.add(at_use)
        else:
            b.add(at_use, split=True, origin=origin if b.whole else None)

    def _unset_use(self, node: Node, b: _Builder, name: str, quoted: bool) -> None:
        if name.isdigit():
            self._add_unknown(node, b, f"${name} is an argument given when the script runs")
        elif _from_environment(name):
            self._add_unknown(node, b, f"${name} comes from the environment")
        elif self.sourced:
            self._add_unknown(node, b, f"${name} is not set in this file (a sourced file may set it)")
        elif not quoted and b.whole and _ARGS_NAME.search(name):
            b.opaque = f"${name} is not set in this file; it may hold several arguments"
            self._add_unknown(node, b, b.opaque)
        else:
            self._add_unknown(
                node, b, f"${name} is not set in this file", unset=None if b.guarded else name
            )

    def _name_and_index(self, node: Node) -> tuple[str, str | None]:
        if node.type == "subscript":
            kids = node.named_children
            name = self._text(kids[0]) if kids else self._text(node)
            idx = self._text(kids[1]) if len(kids) > 1 else ""
            return name, idx
        return self._text(node), None

    def _lookup(self, name: str) -> tuple[str, MStr | None, _Var | None, str | None]:
        """("known" | "unknown" | "unset", value, the array, why unknown)."""
        if name.isdigit() or name in ("#", "?", "$", "!", "-", "0", "_"):
            if name.isdigit() and name != "0":
                return "unknown", None, None, f"${name} is an argument given when the script runs"
            return "unknown", None, None, f"${name} is only known when the script runs"
        var = self.vars.get(name)
        if var is None:
            return "unset", None, None, None
        if var.items is not None:
            first = var.items[0] if var.items else MStr.empty()
            return "known", first, var, None
        if var.value is not None:
            return "known", var.value, None, None
        return "unknown", None, None, var.note or f"${name} is only known when the script runs"

    def _index(
        self, name: str, state: str, array: _Var | None, index: str,
        b: _Builder, span: Span, op: str, prefix: str,
    ) -> tuple[str, MStr | None, str | None]:
        """``${A[@]}``, ``${A[*]}``, ``${A[0]}``, ``${#A[@]}``."""
        items = array.items if array is not None else None
        if index in ("@", "*"):
            if prefix == "#" and items is not None:
                b.add(MStr.at(str(len(items)), span))
                return "done", None, None
            if items is None or op or prefix:
                note = f"${{{name}[@]}} is only known when the script runs"
                if b.whole:
                    b.opaque = note
                return ("unset" if state == "unset" else "unknown"), None, note
            if index == "@" and b.whole and not b.parts:
                # Each element is its own word, pointing where it was written.
                spans = array.item_spans or [m.span(span) for m in items]
                b.elements = [_Out(make_word(m, sp), m) for m, sp in zip(items, spans)]
                return "done", None, None
            joined = MStr.empty()
            for k, m in enumerate(items):
                if k:
                    joined = joined + MStr.at(" ", span)
                joined = joined + m
            return "known", joined, None
        if items is not None and index.isdigit():
            k = int(index)
            if k < len(items):
                return "known", items[k], None
            return "known", MStr.empty(), None
        return ("unset" if state == "unset" else "unknown"), None, f"${{{name}[{index}]}} is only known when the script runs"

    def _arith(self, node: Node) -> str | None:
        """``$(( ... ))`` over integers and variables known to hold integers."""
        text = self._text(node)
        expr = text[3:-2] if text.startswith("$((") and text.endswith("))") else None
        if expr is None:
            return None

        def var(m: re.Match) -> str:
            state, value, _, _ = self._lookup(m.group(1) or m.group(2))
            if state != "known" or not re.fullmatch(r"\s*-?\d+\s*", value.text):
                raise ValueError(m.group(0))
            return f"({value.text.strip()})"

        try:
            expr = re.sub(r"\$\{?([A-Za-z_]\w*)\}?|\b([A-Za-z_]\w*)\b", var, expr)
            return str(_eval_int(expr))
        except (ValueError, SyntaxError, ZeroDivisionError, RecursionError):
            return None


# -- helpers -------------------------------------------------------------------------


@dataclass(slots=True)
class _Culprit:
    """Where a syntax error comes from, and how far what it left open reaches."""

    start: int  # local char index of the culprit
    scope_end: int  # local end of the text it swallowed
    message: str
    span: Span


# Tokens that open a construct, with the token that closes it.
_OPENERS = {
    "$(": ")", "${": "}", "(": ")", "{": "}", "$((": "))", "((": "))",
    "[[": "]]", "if": "fi", "case": "esac", "do": "done",
}


def _error_nodes(n: Node) -> list[Node]:
    """``n`` and the ERROR nodes nested in it."""
    out, stack = [], [n]
    while stack:
        e = stack.pop()
        out.append(e)
        stack.extend(c for c in e.children if c.is_error)
    return out


def _name_word(node: Node) -> Node:
    """The word inside a ``command_name`` node."""
    if node.type == "command_name" and node.named_child_count:
        return node.named_child(0)
    return node


def _has_space(text: str) -> bool:
    return " " in text or "\t" in text or "\n" in text


def _is_whole_expansion(node: Node) -> bool:
    """``$X``, ``${X[@]}`` or ``"${X[@]}"``: the word is one expansion."""
    if node.type in ("simple_expansion", "expansion"):
        return True
    if node.type == "string":
        named = node.named_children
        return len(named) == 1 and named[0].type in ("simple_expansion", "expansion") and len(node.children) == 3
    return False


def _reads_script(words: list[Word]) -> bool:
    """Whether an argv runs a shell that reads its script from stdin."""
    texts = [w.text for w in words]
    for k in range(len(texts) - 1, -1, -1):
        if basename(texts[k]) in _SHELLS:
            rest = texts[k + 1 :]
            if "-s" in rest or all(t.startswith("-") and "c" not in t[1:] for t in rest):
                return True
            return False
    if texts and basename(texts[0]) == "ssh":
        k, positional = 1, []
        while k < len(texts):
            t = texts[k]
            if t in _SSH_VALUE:
                k += 2
                continue
            if not t.startswith("-"):
                positional.append(t)
            k += 1
        return len(positional) == 1
    return False


def _same_value(old: _Var, new: _Var) -> bool:
    if old.value is not None and new.value is not None:
        return old.value.text == new.value.text
    if old.items is not None and new.items is not None:
        return [m.text for m in old.items] == [m.text for m in new.items]
    return False


def _append(old: _Var | None, new: _Var, name: str) -> _Var:
    """``X+=...`` / ``A+=(...)``."""
    if old is None:
        return new
    if new.is_array or old.is_array:
        if old.items is not None and new.items is not None:
            spans = (old.item_spans or []) + (new.item_spans or [])
            ok = len(spans) == len(old.items) + len(new.items)
            return _Var(items=old.items + new.items, item_spans=spans if ok else None, is_array=True)
        if old.items is None and old.value is not None and new.items is not None:
            return _Var(items=[old.value] + new.items, is_array=True)
        return _Var(is_array=True, note=f"${{{name}[@]}} holds values only known when the script runs")
    if old.value is not None and new.value is not None:
        return _Var(value=old.value + new.value)
    return _Var(note=old.note or new.note or f"${name} is only known when the script runs")


def _env_var(name: str, var: _Var) -> EnvVar:
    if var.items is not None:
        value = " ".join(m.text for m in var.items)
        return EnvVar(name, value, var.span, True)
    if var.value is not None:
        return EnvVar(name, var.value.text, var.span, True)
    return EnvVar(name, None, var.span, False)


def _transform(value: str, op: str, operand: list[str]) -> str | None:
    """``${X#p}``, ``${X%%p}``, ``${X/a/b}``, ``${X,,}``, ``${X:1:2}`` on a known value."""
    pattern = "".join(operand)
    if op in ("#", "##", "%", "%%"):
        if not operand and op in ("#", "%"):
            return value
        cuts = range(len(value) + 1)
        if op == "#":
            for k in cuts:
                if fnmatch.fnmatchcase(value[:k], pattern):
                    return value[k:]
        elif op == "##":
            for k in reversed(cuts):
                if fnmatch.fnmatchcase(value[:k], pattern):
                    return value[k:]
        elif op == "%":
            for k in reversed(cuts):
                if fnmatch.fnmatchcase(value[k:], pattern):
                    return value[:k]
        else:
            for k in cuts:
                if fnmatch.fnmatchcase(value[k:], pattern):
                    return value[:k]
        return value
    if op in ("^^", ",,", "^", ","):
        if op == "^^":
            return value.upper()
        if op == ",,":
            return value.lower()
        if op == "^":
            return value[:1].upper() + value[1:]
        return value[:1].lower() + value[1:]
    if op in ("/", "//") and operand and not any(ch in operand[0] for ch in "*?["):
        old = operand[0]
        new = operand[1] if len(operand) > 1 else ""
        if not old:
            return value
        return value.replace(old, new) if op == "//" else value.replace(old, new, 1)
    if op == ":" and operand:
        try:
            nums = [int(t) for t in operand if t.strip() and t != ":"]
        except ValueError:
            return None
        if not nums:
            return None
        start = nums[0]
        if len(nums) > 1:
            return value[start : start + nums[1]] if nums[1] >= 0 else value[start : nums[1]]
        return value[start:]
    return None


def _eval_int(expr: str) -> int:
    """Evaluate an integer expression with + - * / % and parentheses."""
    tree = ast.parse(expr.strip(), mode="eval")

    def ev(n: ast.AST) -> int:
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            v = ev(n.operand)
            return -v if isinstance(n.op, ast.USub) else v
        if isinstance(n, ast.BinOp):
            x, y = ev(n.left), ev(n.right)
            if isinstance(n.op, ast.Add):
                return x + y
            if isinstance(n.op, ast.Sub):
                return x - y
            if isinstance(n.op, ast.Mult):
                return x * y
            if isinstance(n.op, (ast.Div, ast.FloorDiv)):
                q = abs(x) // abs(y)
                return q if (x >= 0) == (y >= 0) else -q
            if isinstance(n.op, ast.Mod):
                return x - y * (abs(x) // abs(y) if (x >= 0) == (y >= 0) else -(abs(x) // abs(y)))
        raise ValueError("not an integer expression")

    return ev(tree)


__all__ = ["parse_shell", "parse_shell_document", "ShellResult"]
