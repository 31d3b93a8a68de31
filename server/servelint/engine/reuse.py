"""Reusing the last lint: which launches an edit left alone, and their
findings moved to where the launches are now.

A launch whose text, environment, release, config file and settings are
unchanged keeps its diagnostics (``carried``), moved if the launch moved:
a place inside the launch moves with it, any other place as the edit moved
the text around it (``relocated``).  A finding that points at text the edit
changed is never moved: the launch is checked again.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from functools import partial
from typing import Callable

from ..structs import assembler, dataclass, fields, replace
from ..diagnostics import Diagnostic, Edit, Fix, Related
from ..model import Env, Launch, MovedLaunch, same_linked
from ..release import ReleaseChoice
from ..text import SourceText, Span
from .results import LaunchResult
from .signature import deployment_part


def launch_key(source: SourceText, launch: Launch, env_keys: "EnvKeys") -> tuple:
    """What a launch's findings depend on in the document, relative to
    where it starts (the engine adds release, config file and settings)."""
    base = launch.span.start
    return (
        launch.form, launch.entry, source.text[launch.span.start : launch.span.end],
        tuple((w.text, w.span.start - base, w.span.end - base, w.exact) for w in launch.args),
        env_keys.of(launch.env, launch.span), launch.image,
        tuple((p.code, p.message, p.span.start - base, p.span.end - base) for p in launch.problems),
        deployment_part(launch, base),
    )


def has_build(launch: Launch) -> bool:
    """Whether ``launch`` is built from a Dockerfile (``Launch.build``),
    without shifting the words of a moved launch nobody has read yet (every
    launch below an edit, on each keystroke): a move keeps what a launch is,
    so the launch it was last read as (the root of its pending moves) says."""
    if isinstance(launch, MovedLaunch) and launch.unread and launch.pending is not None:
        launch = launch.pending[0]
    return launch.build is not None


def carried(prev: LaunchResult, key: tuple, path: str, launch: Launch, release: ReleaseChoice,
            edit: "Change | None", read, read_later: Callable) -> LaunchResult | None:
    """``prev``'s findings for ``launch`` (the same words, release, config
    file and settings: ``key``), at the launch's place now; None if one
    of them points at text the edit changed, or when what the rest of the
    document adds to the launch changed (``Launch.linked``).  ``read``
    reads the launch again when asked (None: ``read_later(launch, release)``
    does)."""
    if not same_linked(prev.linked, launch.linked):
        return None
    reused = relocated(prev, path, launch, edit)
    if reused is None:
        return None
    base = launch.span.start
    # Places inside the launch keep their distance from its start.
    reach = prev.reach if prev.reach is not None and (prev.reach is not False or reused is prev.diagnostics) else None
    if reused is prev.diagnostics and base == prev.base:
        if prev.launch is launch and prev.release is release:
            return prev  # untouched: nothing to copy
        if launch.moved_from is not prev.launch:
            return LaunchResult(launch, release, prev._invocation, reused, prev.by_rule, key, base, prev._reread,
                                prev.lsp, reach, order=prev.order)
        # Else the re-parse moved it, or the variables it reads from
        # below an edit (a launch in a function's body): read it again.
    # A launch that moved is read again (for a hover, say) only when
    # asked: its old reading has the old places.  (A partial, not a
    # reader: every launch below an edit gets one per keystroke.)
    # (Findings all inside the launch moved with it, and kept their order.)
    order = prev.order if type(reach) is tuple else None
    return LaunchResult(launch, release, None, reused, prev.by_rule, key, base,
                        read or partial(read_later, launch, release), prev.lsp, reach, order=order)


class Untouched:
    """The launches a keystroke left alone, as the last lint found them,
    known without the engine's full round of checks (``Engine._lint_launch``).

    The re-parse hands back each launch above the edit as the same object
    and each one below it moved (``Launch.moved_from``), at its index or
    ``shift`` further.  When such a launch's findings came from its own text,
    its release and these settings alone (``LaunchResult.reads_only_itself``),
    the release still holds (``stable``), what the rest of the document adds
    to it is the same, and every place its findings name is inside it, they
    are the last lint's, moved with the launch.  Anything else (None) goes
    through the full checks, which reach the same answer for these at a few
    times the cost: this runs for every launch of the file on each keystroke."""

    __slots__ = ("before", "shift", "stable", "settings", "refs", "chart", "path", "read_later", "choose")

    def __init__(self, before: list[LaunchResult], shift: int, stable: "Stable", settings, refs: Mapping,
                 chart: Mapping, path: str, read_later: Callable, choose: Callable[[Launch], ReleaseChoice]) -> None:
        self.before, self.shift, self.stable, self.settings = before, shift, stable, settings
        self.refs, self.chart, self.path, self.read_later = refs, chart, path, read_later
        self.choose = choose  # the release of a launch, chosen again

    def kept(self, index: int, launch: Launch) -> LaunchResult | None:
        before = self.before
        if index < len(before) and before[index].launch is launch:
            prev, moved = before[index], False
        else:
            j = index - self.shift
            origin = launch.moved_from
            if origin is None or not 0 <= j < len(before) or before[j].launch is not origin:
                return None
            prev, moved = before[j], True
        if not prev.reads_only_itself(self.settings):
            return None
        if (self.refs and id(launch) in self.refs) or (self.chart and index in self.chart):
            return None  # its --config file, its chart's values: read again
        release = prev.release
        now = self.stable.release(release)
        if now is not release:
            if not moved:
                return None
            # An edit that adds or removes a line above the hint deciding it
            # (each pod's image, below a line typed in a manifest): chosen
            # again, and the findings still hold when the release and the
            # reason given for it are the same.
            if now is None:
                now = self.choose(launch)
            if now.version != release.version or now.reason != release.reason:
                return None
            release = now
        if prev.linked is not launch.linked and not same_linked(prev.linked, launch.linked):
            return None
        found = prev.count
        if found and type(prev.reach) is not tuple:
            return None  # a place outside the launch (or not measured yet): ``relocated`` decides
        if not moved:
            return prev
        base = launch.span.start
        delta = base - prev.base
        # (A partial, not a reader: see ``carried``.)
        read = partial(self.read_later, launch, release)
        if delta and found:
            return MovedResult.of(prev, launch, release, base, read, self.path, delta)
        return _result(LaunchResult, launch, release, None, prev.diagnostics, prev.by_rule, prev.key, base, read,
                       prev.lsp, prev.reach, launch.linked, prev.order)


class MovedResult(LaunchResult):
    """The result of a launch ``Untouched`` moved: the last lint's findings,
    shifted when first read.

    Every launch below an edit gets one on each keystroke, and what reads
    the findings of most of them is the next keystroke, which moves them
    again: a move of findings nobody read adds to the distance they are
    waiting to move (``_pending``: the findings as last shifted, their
    document, the distance), so each is copied once when read, however
    many keystrokes moved it."""

    __slots__ = ("_pending",)

    @classmethod
    def of(cls, prev: LaunchResult, launch: Launch, release: ReleaseChoice, base: int, read: Callable,
           path: str, delta: int) -> "MovedResult":
        pending = prev._pending if type(prev) is MovedResult else None
        if pending is not None and pending[1] == path:
            pending = (pending[0], path, pending[2] + delta)
        else:
            pending = (prev.diagnostics, path, delta)
        # (Every place is inside the launch, ``reach`` a tuple: all of them
        # move with it, and keep their order.)
        self = _result(cls, launch, release, None, None, prev.by_rule, prev.key, base, read, prev.lsp, prev.reach,
                       launch.linked, prev.order)
        self._pending = pending
        return self

    @property
    def diagnostics(self) -> list[Diagnostic]:
        pending = self._pending
        if pending is not None:
            found, path, delta = pending
            _DIAGNOSTICS.__set__(self, [_shifted(d, path, delta) for d in found])
            self._pending = None
        return _DIAGNOSTICS.__get__(self)

    @diagnostics.setter
    def diagnostics(self, value: list[Diagnostic] | None) -> None:
        self._pending = None
        _DIAGNOSTICS.__set__(self, value)

    @property
    def count(self) -> int:
        pending = self._pending
        return len(pending[0]) if pending is not None else len(_DIAGNOSTICS.__get__(self))


_DIAGNOSTICS = LaunchResult.__dict__["diagnostics"]  # the slot, under MovedResult's property
# A LaunchResult (or MovedResult) from every field's value, in order:
# (launch, release, _invocation, diagnostics, by_rule, key, base, _reread,
# lsp, reach, linked, order); ``linked`` is the launch's, as
# ``LaunchResult.__post_init__`` sets it.
_result = assembler(LaunchResult)


class EnvKeys:
    """The environment part of launch keys.

    A variable set outside the launch counts by value, not by place
    (findings pointing at it are moved with the document: relocated); one
    set inside it (a ``VAR=x`` prefix) by its place in the launch.  A script
    exporting thousands of variables shares them between its launches
    (``model.Env``: a few own entries over a shared base): each shared base
    is described once per lint, not once per launch."""

    # Shared environments remembered across lints (a keystroke keeps most of
    # them); past this many, the next lint starts afresh.
    LIMIT = 4096

    def __init__(self) -> None:
        # id(env) → (env, first start, last end of its variables, its part);
        # holding env keeps its id from being reused by another object.
        self._shared: dict[int, tuple] = {}

    def trim(self) -> None:
        if len(self._shared) > self.LIMIT:
            self._shared.clear()

    def of(self, env: Mapping, span: Span) -> tuple:
        if isinstance(env, Env) and env.frozen:
            return self._of_shared(env, span)
        return self._describe(env, span)

    def _describe(self, env: Mapping, span: Span) -> tuple:
        if isinstance(env, Env):
            own, hidden, shared = env.layers()
            if shared is not None:
                return ("over", _env_entries(own, span), tuple(sorted(hidden)), self._of_shared(shared, span))
        return _env_entries(env, span)

    def _of_shared(self, env: Mapping, span: Span) -> tuple:
        """An environment several launches hold (never changed again)."""
        got = self._shared.get(id(env))
        if got is None or got[0] is not env:
            starts = [var.span.start for var in env.values() if var.span is not None]
            # Described as if every variable were outside the launch (what a
            # base set before the launch holds); checked for each launch.
            got = self._shared[id(env)] = (env, min(starts, default=0), max(starts, default=-1) + 1,
                                           self._describe(env, Span(0, 0)))
        _, lo, hi, part = got
        if hi <= span.start or lo >= span.end or span.start == span.end:
            return part
        return self._describe(env, span)  # a variable of it inside this launch


def _env_entries(env: Mapping, span: Span) -> tuple:
    base = span.start
    return tuple(sorted(
        (
            name,
            var.value,
            var.exact,
            None if var.span is None else (
                (var.span.start - base, var.span.end - base)
                if span.start <= var.span.start < span.end
                else "outside"
            ),
        )
        for name, var in env.items()
    ))


class LazyIndex:
    """The last lint's launch results, found by key or by launch object; each
    index is built on first use (a keystroke usually needs neither).

    ``shift``: how many launches the new parse has more than the last one.
    A re-parse keeps the launches above an edit at their index and moves
    those below it by ``shift``, so a launch is looked for there first.
    ``text``: the text the last lint read, when known."""

    def __init__(self, results: list[LaunchResult], shift: int = 0, text: str | None = None) -> None:
        self.results = results
        self.shift = shift
        self.text = text
        self._by_key: dict | None = None
        self._by_launch: dict | None = None

    def __bool__(self) -> bool:
        return bool(self.results)

    def get(self, key: tuple) -> LaunchResult | None:
        """The last lint's result with this key (the same launch text, words,
        environment and context), if any."""
        if self._by_key is None:
            if self.text is not None and key[2] not in self.text:
                # A launch's key holds its text as the last lint read it: a
                # text that was nowhere in the document is in no key (the
                # one a keystroke edited).  One search of the text instead
                # of an index of every launch; should a key ever hold other
                # text, a miss here only costs the launch a full check.
                return None
            # By the launch's text (key[2], see launch_key): a string
            # keeps its hash, a tuple of tuples hashes again on every lookup,
            # and this index is built on every keystroke.
            self._by_key = {}
            for r in self.results:
                if len(r.key) > 2:
                    self._by_key.setdefault(r.key[2], []).append(r)
        for r in self._by_key.get(key[2], ()):
            if r.key == key:
                return r
        return None

    def of_launch(self, launch: Launch, index: int | None = None, moved_from: Launch | None = None
                  ) -> LaunchResult | None:
        """The result of ``launch`` (or of ``moved_from``, the launch it was
        before an edit moved it), now at ``index``."""
        wanted = (launch,) if moved_from is None else (launch, moved_from)
        if index is not None:
            results = self.results
            for j in (index, index - self.shift):
                if 0 <= j < len(results):
                    had = results[j].launch
                    if had is launch or (moved_from is not None and had is moved_from):
                        return results[j]
        if index is not None and moved_from is None:
            # A launch the re-parse made anew (the edited one, or every one
            # after a full parse) is in no earlier result: no index for it.
            return None
        if self._by_launch is None:
            self._by_launch = {id(r.launch): r for r in self.results}
        for one in wanted:
            got = self._by_launch.get(id(one))
            if got is not None and got.launch is one:
                return got
        return None


@dataclass(frozen=True, slots=True)
class Change:
    """What changed since the last lint: ``old[start:old_end]`` became
    ``new[start:new_end]``."""

    start: int
    old_end: int
    new_end: int


class Stable:
    """Release choices that an edit leaving the document's release hints as
    they were cannot change (``release`` answers for one launch)."""

    __slots__ = ("edit", "lines_kept")

    def __init__(self, edit: Change, lines_kept: bool) -> None:
        self.edit, self.lines_kept = edit, lines_kept

    def release(self, before: ReleaseChoice) -> ReleaseChoice | None:
        """``before`` if it still holds for its launch, else None (choose again).

        With the same hints in the same order, the same one decides; only
        the line a reason names can have changed, when the edit added or
        removed lines above that hint, and the place of a pin outside the
        tables (SL013 is reported there)."""
        span = before.span
        if span is None or span.end <= self.edit.start:
            return before
        if not self.lines_kept:
            return None
        if before.outside is None:
            return before
        # SL013 is reported at the pin itself: move it with the text.
        if span.start >= self.edit.old_end:
            delta = self.edit.new_end - self.edit.old_end
            return replace(before, span=Span(span.start + delta, span.end + delta))
        return None


def same_hints(old: list, new: list, edit: Change) -> bool:
    """Whether ``new`` is ``old`` with every hint where the edit moved it
    (none typed, deleted or changed)."""
    if old is new:
        return True
    if len(old) != len(new):
        return False
    # Hints wholly before the edit stay put; those after it move by delta;
    # none may touch it.  Compared list by list (a manifest has a hint per
    # container, and this runs on every keystroke).  Hints are in text
    # order, by start and by end (release.choose bisects them the same way).
    k = bisect_left(old, edit.start, key=_hint_end)
    while k < len(old) and old[k].span.end == edit.start and old[k].span.start < edit.start:
        k += 1
    if k < len(old) and old[k].span.start < edit.old_end:
        return False
    if old[:k] != new[:k]:
        return False
    delta = edit.new_end - edit.old_end
    a, b = old[k:], new[k:]
    return ([(h.kind, h.version, h.text, h.span.start + delta, h.span.end + delta) for h in a]
            == [(h.kind, h.version, h.text, h.span.start, h.span.end) for h in b])


def _hint_end(h) -> int:
    return h.span.end


def relocated(prev: LaunchResult, path: str, launch: Launch, edit: Change | None) -> list[Diagnostic] | None:
    """``prev``'s diagnostics for the same launch, now at ``launch``'s place;
    None if one of them points at text the edit changed.

    A place inside the launch moves with it; any other place in the document
    (an ``export`` above it, a release comment) moves as the edit moved the
    text around it.  ``prev.diagnostics`` itself when nothing moves."""
    if not prev.diagnostics:
        return prev.diagnostics  # most launches: nothing to move
    delta = launch.span.start - prev.base
    old_span = prev.launch.span
    moves = edit is not None and edit.new_end != edit.old_end
    reach = prev.reach
    if reach is None:
        reach = prev.reach = _reach(prev.diagnostics, path, old_span)
    if reach is not False:
        # Every place in the document is inside the launch (most launches):
        # all of them move with it, or none does.
        if not delta:
            return prev.diagnostics
        return [_shifted(d, path, delta) for d in prev.diagnostics]

    def mv(span: Span) -> Span | None:
        if old_span.start <= span.start and span.end <= old_span.end:
            return span.shifted(delta) if delta else span
        if edit is None:
            return span
        if span.end <= edit.start and not (span.end == edit.start == span.start):
            return span
        if span.start >= edit.old_end:
            d = edit.new_end - edit.old_end
            return span.shifted(d) if d else span
        return None

    if not delta and not moves:
        # Nothing moved; a place inside the edited text is still stale.
        if edit is None or all(_places_ok(d, path, mv) for d in prev.diagnostics):
            return prev.diagnostics
        return None
    out = []
    changed = False
    for d in prev.diagnostics:
        moved = _moved(d, path, mv)
        if moved is None:
            return None
        changed = changed or moved is not d
        out.append(moved)
    return out if changed else prev.diagnostics


def within(diags: list[Diagnostic], path: str, made: Span, now: Span) -> list[Diagnostic] | None:
    """A rule's diagnostics made for a launch at ``made``, for the launch now
    at ``now`` (same inputs); None if one points outside the launch (at an
    ``export``, say), whose place the launch's inputs do not tell."""
    delta = now.start - made.start

    def mv(span: Span) -> Span | None:
        if made.start <= span.start and span.end <= made.end:
            return span.shifted(delta) if delta else span
        return None

    if not delta:
        return diags if all(_places_ok(d, path, mv) for d in diags) else None
    out = []
    for d in diags:
        moved = _moved(d, path, mv)
        if moved is None:
            return None
        out.append(moved)
    return out


def _reach(diags: list[Diagnostic], path: str, span: Span) -> tuple[int, int] | bool:
    """(first, last) place the diagnostics name in ``path``, from the
    start of ``span``, if every one is inside it; else False."""
    lo, hi = span.end, span.start
    for d in diags:
        for p, s in places(d):
            if p != path:
                continue
            if s.start < span.start or s.end > span.end:
                return False
            lo, hi = min(lo, s.start), max(hi, s.end)
    return lo - span.start, hi - span.start


def _shifted(d: Diagnostic, path: str, delta: int) -> Diagnostic:
    """``d`` with each of its places in ``path`` ``delta`` characters further.

    The copies are made by the classes' own constructors (their fields are
    checked below): ``dataclasses.replace``, five of them for a diagnostic
    with two fixes, was most of what a keystroke cost on a script where
    every launch below the edit has a finding."""
    related = d.related
    if related:
        related = [Related(r.path, r.span.shifted(delta), r.message) if r.path == path else r for r in related]
    fixes = d.fixes
    if fixes:
        fixes = [
            Fix(fx.title, [Edit(e.path, e.span.shifted(delta), e.new_text) if e.path == path else e
                           for e in fx.edits], fx.applicability, fx.preferred, fx.record)
            for fx in fixes
        ]
    return Diagnostic(d.path, d.span.shifted(delta) if d.path == path else d.span, d.severity, d.code, d.name,
                      d.category, d.message, d.vllm_version, d.flag, d.record, related, fixes, d.tags, d.data,
                      d.doc_url)


def _fields_are(cls, names: tuple[str, ...]) -> None:
    """``_shifted`` copies ``cls`` field by field: a field added to it must be copied there too."""
    got = tuple(f.name for f in fields(cls))
    if got != names:
        raise ImportError(f"engine.reuse._shifted copies {cls.__name__}{names}, but it now has {got}")


_fields_are(Related, ("path", "span", "message"))
_fields_are(Edit, ("path", "span", "new_text"))
_fields_are(Fix, ("title", "edits", "applicability", "preferred", "record"))
_fields_are(Diagnostic, ("path", "span", "severity", "code", "name", "category", "message", "vllm_version", "flag",
                         "record", "related", "fixes", "tags", "data", "doc_url"))


def _places_ok(d: Diagnostic, path: str, mv) -> bool:
    return all(mv(s) is not None for p, s in places(d) if p == path)


def places(d: Diagnostic):
    """(path, span) of every place ``d`` names: itself, its related places, its fixes' edits."""
    yield d.path, d.span
    for r in d.related:
        yield r.path, r.span
    for fx in d.fixes:
        for e in fx.edits:
            yield e.path, e.span


def _moved(d: Diagnostic, path: str, mv) -> Diagnostic | None:
    """``d`` with each of its places in ``path`` mapped by ``mv`` (None if one cannot be)."""
    def m(span: Span, p: str) -> Span:
        if p != path:
            return span
        got = mv(span)
        if got is None:
            raise _Stale
        return got

    try:
        if all(m(s, p) is s for p, s in places(d)):
            return d  # above the edit: nothing to copy
        return replace(
            d,
            span=m(d.span, d.path),
            related=[replace(r, span=m(r.span, r.path)) for r in d.related],
            fixes=[replace(fx, edits=[replace(e, span=m(e.span, e.path)) for e in fx.edits]) for fx in d.fixes],
        )
    except _Stale:
        return None


class _Stale(Exception):
    pass
