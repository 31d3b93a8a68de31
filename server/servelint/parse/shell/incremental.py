"""Re-reading a script after an edit: only the top-level statements it touched.

The last parse kept each top-level statement with the state before it
(``Tops``: offsets above the last edit, distances from the end below it, so
that a keystroke shifts none).  An edit inside statements that changed no
variable, function or option is re-read from the snapshot before them
(``reparse``); the launches below it are moved, not read again: their
words are shifted only when someone reads them (``MovedLaunch``, with the
moves since they were last read composed in ``_Step``).  The result is the
same as a full parse (tests check it on random edits); whenever that is not
sure, ``reparse`` answers None and the whole script is read.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from operator import itemgetter

from ...structs import dataclass, replace
from ...model import Env, EnvVar, Form, Launch, MovedLaunch, ParsedDocument, ParseProblem, ReleaseHint, Word
from ...text import KnownEdit, Span, edit_between
from ..entry import config_refs
from .grammar import ascii_only
from .walk import Top, Walker


_new_top = tuple.__new__  # without Top's own __new__, a Python call
_top_start, _top_end = itemgetter(0), itemgetter(1)


# A tail statement's start and end as offsets minus the text's length:
# ascending in text order, as the distances it holds descend.
def _tail_start(t: Top) -> int:
    return -t[0]


def _tail_end(t: Top) -> int:
    return -t[1]


class Tops:
    """A script's top-level statements in text order (by start and by end).

    Those above the last edit (``head``) hold their offsets; those below it
    (``tail``) hold their distance from the end of the text, which an edit
    above them does not change.  So a keystroke shifts no statement: only
    the statements between this edit and the last one change sides."""

    __slots__ = ("head", "tail", "length")

    def __init__(self, head: list[Top], tail: list[Top], length: int) -> None:
        self.head, self.tail, self.length = head, tail, length

    def __len__(self) -> int:
        return len(self.head) + len(self.tail)

    def __getitem__(self, k: int) -> Top:
        head = self.head
        if k < len(head):
            return head[k]
        t = self.tail[k - len(head)]
        return _new_top(Top, (self.length - t[0], self.length - t[1], t[2], t[3]))

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

    def all_above(self, length: int) -> "Tops":
        """These statements after an edit below all of them (``length``
        long): each at its offset."""
        return self.spliced(len(self), len(self) - 1, [], length)

    def spliced(self, first: int, last: int, region: list[Top], length: int) -> "Tops":
        """These statements with ``first..last`` replaced by ``region`` (at
        their offsets in the edited text, ``length`` long)."""
        head, tail, old = self.head, self.tail, self.length
        n = len(head)
        if first <= n:
            before = head[:first]
        else:  # the statements between the last edit and this one move above it
            before = head + [_new_top(Top, (old - t[0], old - t[1], t[2], t[3])) for t in tail[: first - n]]
        if last + 1 >= n:
            after = tail[last + 1 - n :]
        else:  # and those between this edit and the last one below it
            after = [_new_top(Top, (old - t[0], old - t[1], t[2], None)) for t in head[last + 1 :]]
            after += tail
        return Tops(before + region, after, length)


@dataclass
class ShellIncremental:
    """What a later edit of the same script can reuse (kept on ParsedDocument.cache)."""

    text: str
    tops: Tops
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
    # When this parse is that of ``text[:prefix_end]`` (see ``document._prefix_end``):
    # an edit past it changes nothing read.  -1: unknown.
    prefix_end: int = -1
    # ids of the launches read in a function's body (``Walker.in_calls``)
    in_calls: frozenset = frozenset()


def as_before(path: str, prev: ShellIncremental, cache: ShellIncremental) -> ParsedDocument:
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
        return as_before(path, prev, prev)
    start, old_end, new_end = edit_between(prev.text, text, edit)
    delta = new_end - old_end
    tops = prev.tops
    if prev.unread is not None and 0 <= prev.prefix_end <= start:
        # Past the text a parse stopping at the launch limit reads: nothing
        # read changes (every statement read is above the edit).
        return as_before(path, prev, replace(prev, text=text, tops=tops.all_above(len(text)), from_edit=True))
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
    walker = Walker(piece, ascii_only(piece), None, rs, Form.SHELL, {}, "shell", [], None)
    if not walker.reread(snap, prev.assigned, prev.sourced):
        return None
    if walker.problems:
        return None
    new_tops = [Top(t.start + rs, t.end + rs, t.pure, snap) for t in walker.tops]
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
    # (The passes over every launch below are made only when a set they
    # look in has something: most scripts have neither.)
    if prev.in_calls:
        in_calls.update(id(l) for l in moved if id(l.moved_from) in prev.in_calls)
    region_launches = sorted(walker.launches, key=lambda l: (l.span.start, l.span.end))
    launches = kept_before + region_launches + moved
    if max_launches and unread is None and len(launches) > max_launches:
        return None  # now past the launch limit: a full parse stops where it should
    with_refs = {id(l) for l in region_launches if config_refs(l)}
    if prev.with_refs:
        with_refs.update(id(l) for l in kept_before if id(l) in prev.with_refs)
        with_refs.update(id(l) for l in moved if id(l.moved_from) in prev.with_refs)
    doc = ParsedDocument(path=path, form=Form.SHELL, launches=launches, problems=[],
                         config_refs=[(l, w) for l in launches if id(l) in with_refs for w in config_refs(l)]
                         if with_refs else [],
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
    # (``MovedLaunch.unread``, and the limit only past its least: on every launch below an edit.)
    pending = launch.pending if type(launch) is MovedLaunch and getattr(launch, "_make", None) is not None else None
    if pending is not None and pending[1].depth >= _REPLAY_LEAST and pending[1].depth >= _replay_limit(pending[0]):
        launch._materialize()
        pending = None
    root, before = pending if pending is not None else (launch, None)
    key = id(before)
    step = steps.get(key)
    if step is None:
        step = steps[key] = _Step(before, delta, at)
    hints = [h if h.span.end < at else ReleaseHint(h.version, _shift_span(h.span, delta, at), h.kind, h.text)
             for h in launch.release_hints] if launch.release_hints else []
    # (The launch is after the edit: its span and entry move whole.)
    return MovedLaunch.of(launch, launch.span.shifted(delta), launch.entry_span.shifted(delta), hints,
                          _replay, (root, step))


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


_REPLAY_LEAST = 128


def _replay_limit(root: Launch) -> int:
    # A place before or after every move is shifted at once, one between
    # them replays the moves; past this many a launch is shifted once (and
    # the chain of moves let go).  Spread per launch, so that not every
    # launch of a file (all moved by the same edits) is shifted on the same
    # keystroke.
    return _REPLAY_LEAST + (id(root) >> 4) % 128


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
        inputs=[replace(i, uses=[step.span(u) for u in i.uses],
                        guard=None if i.guard is None else step.span(i.guard)) for i in launch.inputs],
        written_config=None if launch.written_config is None else _replay(launch.written_config, step),
        deployment=None if launch.deployment is None else launch.deployment.moved(step.span),
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
