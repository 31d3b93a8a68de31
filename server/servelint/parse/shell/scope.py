"""Variables and their scopes, as one walk through a script sees them.

One simple scope: an assignment is visible to everything after it, a
function body sees the globals as they are when it is first called,
``local`` stays in its function, a subshell's changes are dropped (the
walk does those last two with ``frames`` and a copy of ``vars``).  A value
set differently on different paths (inside ``if``, ``&&``, a loop) is
unknown.  The exported variables are the environment a launch sees.

Every change is logged (``Tracked``), so that the walk's snapshots
(``Journal``: the state before each top-level statement, for re-reading
one statement after an edit) and the shared environment learn what changed
without comparing whole states.
"""

from __future__ import annotations

from bisect import bisect_right
from math import isqrt

from ...structs import dataclass
from ...model import Env, EnvVar
from ...text import Span
from ..words import MStr
from .source import ScriptText


@dataclass(slots=True)
class Var:
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


def from_environment(name: str) -> bool:
    return name in _ENVIRONMENT or name.startswith(_ENVIRONMENT_PREFIXES)


class Tracked(dict):
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

    def copy(self) -> "Tracked":
        return Tracked(self, self.log)

    def _untracked(self, *args, **kwargs):
        raise TypeError("this change would not be logged")

    clear = popitem = __ior__ = _untracked


_GONE = object()  # in a journal entry: the name was removed


# The parts of a walker's state a snapshot holds (each a ``Tracked``).
STATE = ("vars", "exported", "assigned", "functions", "called", "guards", "written")


class Journal:
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

    def __init__(self, scope: "Scope") -> None:
        self.log: list[tuple[int, object, object]] = []  # (index in STATE, name, value or _GONE)
        self.marks: list[int] = []  # where in the log each copy was taken
        self.copies: list[tuple[dict, ...]] = []
        self.size = 0
        self.seen = [len(getattr(scope, part).log) for part in STATE]
        self._copy(scope)

    def _copy(self, scope: "Scope") -> None:
        copy = tuple(
            dict.fromkeys(scope.functions, True) if part == "functions" else dict(getattr(scope, part))
            for part in STATE
        )
        self.marks.append(len(self.log))
        self.copies.append(copy)
        self.size = sum(len(c) for c in copy)

    def snapshot(self, scope: "Scope") -> "Snapshot":
        log = self.log
        for k, part in enumerate(STATE):
            d = getattr(scope, part)
            changed = d.log
            if len(changed) > self.seen[k]:
                for name in dict.fromkeys(changed[self.seen[k] :]):
                    value = d.get(name, _GONE)
                    log.append((k, name, True if part == "functions" and value is not _GONE else value))
                self.seen[k] = len(changed)
        if len(log) - self.marks[-1] > max(64, self.size):
            self._copy(scope)
        return Snapshot(self, len(log), scope.allexport, scope.sourced)

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
class Snapshot:
    """The script's state before a top-level statement: a place in the walk's journal."""

    journal: Journal
    at: int
    allexport: bool
    sourced: bool

    def restore(self, scope: "Scope") -> None:
        for part, values in zip(STATE, self.journal.state(self.at)):
            setattr(scope, part, Tracked(values))
        scope.allexport = self.allexport
        scope.sourced = self.sourced


class Scope:
    """The variables, exports, functions and options of one script walk."""

    def __init__(self, text: ScriptText, env: dict[str, EnvVar], outer_vars: dict[str, Var] | None) -> None:
        # The state a snapshot holds (see ``Journal``): every change is logged.
        self.vars: Tracked = Tracked()  # name → Var
        for name, ev in env.items():
            value = MStr.at(ev.value, ev.span or text.doc_span(0, 0)) if ev.value is not None else None
            note = None if value is not None and ev.exact else f"${name} is only known when the script runs"
            self.vars[name] = Var(value=value if ev.exact else None, exported=True, span=ev.span, note=note)
        if outer_vars:
            self.vars.update(outer_vars)
        self.frames: list[dict[str, Var | None]] = []  # saved globals shadowed by ``local``
        self.cond = 0  # depth of conditional code (if/case/loops/&&)
        self.allexport = False
        self.sourced = False  # a file was sourced: any variable may be set
        self.assigned: Tracked = Tracked(dict.fromkeys(self.vars, True))  # a set
        # Names that may be exported (checked against ``vars`` when used); a set.
        self.exported: Tracked = Tracked((n, True) for n, v in self.vars.items() if v.exported)
        self.functions: Tracked = Tracked()  # name → body
        self.called: Tracked = Tracked()  # a set
        # Variables the script makes sure are set before it goes on
        # (``: "${X:?}"``, ``[ -z "$X" ] && exit``): name → (where, kind);
        # ``set -u`` is the name "-u" (every variable, kind "nounset").
        self.guards: Tracked = Tracked()
        # Files the script has written from a heredoc, by ``written.key``.
        self.written: Tracked = Tracked()
        # Bumped by every change to the script's state (variables, functions,
        # options): a top-level statement that leaves it unchanged is "pure",
        # and can be re-read on its own after an edit (see ``incremental``).
        self.version = 0
        # The exported environment, shared by the launches until it changes
        # (see ``exported_env``).
        self._shared_env: Env | None = None
        self._env_seen = (0, 0)  # how much of the logs of ``vars`` and ``exported`` it reflects
        self._env_base: dict[str, EnvVar] = {}
        self._env_own: dict[str, EnvVar] = {}
        self._env_hidden: set[str] = set()
        self._env_from: dict[str, Var] = {}  # the variable each entry was made from

    def set(self, name: str, var: Var, span: Span | None, *, local: bool = False) -> None:
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
                var = Var(
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

    def guard(self, name: str, span: Span, kind: str = "required") -> None:
        """The script stops here when ``name`` is empty or unset."""
        if name not in self.guards:
            self.version += 1
            self.guards[name] = (span, kind)

    def guard_of(self, name: str) -> "tuple[Span, str] | None":
        return self.guards.get(name) or self.guards.get("-u")

    def unset(self, name: str) -> None:
        self.version += 1
        if self.cond:
            old = self.vars.get(name)
            if old is not None:
                self.vars[name] = Var(exported=old.exported, span=old.span, note=f"${name} may be unset")
            return
        self.vars.pop(name, None)

    def lookup(self, name: str) -> tuple[str, MStr | None, Var | None, str | None]:
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

    def exported_env(self) -> Env:
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


def _same_value(old: Var, new: Var) -> bool:
    if old.value is not None and new.value is not None:
        return old.value.text == new.value.text
    if old.items is not None and new.items is not None:
        return [m.text for m in old.items] == [m.text for m in new.items]
    return False


def appended(old: Var | None, new: Var, name: str) -> Var:
    """``X+=...`` / ``A+=(...)``."""
    if old is None:
        return new
    if new.is_array or old.is_array:
        if old.items is not None and new.items is not None:
            spans = (old.item_spans or []) + (new.item_spans or [])
            ok = len(spans) == len(old.items) + len(new.items)
            return Var(items=old.items + new.items, item_spans=spans if ok else None, is_array=True)
        if old.items is None and old.value is not None and new.items is not None:
            return Var(items=[old.value] + new.items, is_array=True)
        return Var(is_array=True, note=f"${{{name}[@]}} holds values only known when the script runs")
    if old.value is not None and new.value is not None:
        return Var(value=old.value + new.value)
    return Var(note=old.note or new.note or f"${name} is only known when the script runs")


def _env_var(name: str, var: Var) -> EnvVar:
    if var.items is not None:
        value = " ".join(m.text for m in var.items)
        return EnvVar(name, value, var.span, True)
    if var.value is not None:
        return EnvVar(name, var.value.text, var.span, True)
    return EnvVar(name, None, var.span, False)
