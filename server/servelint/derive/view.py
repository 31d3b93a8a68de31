"""What a rule may look at for one launch, with every read recorded.

The engine re-checks a launch incrementally: after an edit it re-runs a rule
only when something the rule looked at changed.  What a rule looked at is
not declared by hand (a forgotten name gave a stale finding): the rule and
the derive functions it calls read through a ``View``, and every read is
logged as a key:

* ``("flag", dest)``: the flags of one option (``last``, ``flags_for``);
* ``("flags",)``: every flag (flag-level rules iterate them all);
* ``("model",)``: the model word and where it came from, its resolution;
* ``("extra",)``: the positional words vLLM will reject;
* ``("config",)``: the ``--config`` file: its state, path and words;
* ``("env", NAME)``: one environment variable; ``("env",)``: all of them;
* ``("problems",)``: what the parser saw in the launch (a dropped `false`);
* ``("args",)``: the launch's words as written;
* ``("deployment",)``: where it runs (its ``deployment`` and ``linked`` facts);
* ``("*",)``: something not modelled here, so anything may matter.

The release, the target platform, the launch's form, entry, image and opaque
words (``"$@"``) are part of every rule's signature and are not logged.

A derive function memoised per launch (``memo``) stores the reads made while
computing it and replays them into every later caller, so a rule that gets a
cached value still records what that value depends on.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Callable

from ..knowledge.versions import version_key

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Flag, Invocation
    from ..knowledge.flags import ReleaseKnowledge

FLAGS = ("flags",)
MODEL = ("model",)
EXTRA = ("extra",)
CONFIG = ("config",)
ALL_ENV = ("env",)
PROBLEMS = ("problems",)
ARGS = ("args",)
DEPLOYMENT = ("deployment",)
EVERYTHING = ("*",)


class Recorder:
    """The keys read, in nested scopes: a memoised computation gets a scope
    of its own, whose keys also count for the scope that asked for it."""

    __slots__ = ("_scopes",)

    def __init__(self) -> None:
        self._scopes: list[set] = [set()]

    def add(self, key: tuple) -> None:
        self._scopes[-1].add(key)

    def update(self, keys) -> None:
        self._scopes[-1].update(keys)

    def push(self) -> None:
        self._scopes.append(set())

    def pop(self) -> frozenset:
        keys = self._scopes.pop()
        self._scopes[-1].update(keys)
        return frozenset(keys)

    def take(self) -> frozenset:
        """The keys of the outer scope, which starts again empty."""
        keys = frozenset(self._scopes[0])
        self._scopes = [set()]
        return keys


class _RecordedEnv(Mapping):
    """A launch's environment whose lookups are recorded."""

    __slots__ = ("_env", "_rec")

    def __init__(self, env: Mapping, rec: Recorder) -> None:
        self._env, self._rec = env, rec

    def __getitem__(self, name: str):
        self._rec.add(("env", name))
        return self._env[name]

    def get(self, name: str, default=None):
        self._rec.add(("env", name))
        return self._env.get(name, default)

    def __contains__(self, name: object) -> bool:
        self._rec.add(("env", name))
        return name in self._env

    def __iter__(self):
        self._rec.add(ALL_ENV)
        return iter(self._env)

    def __len__(self) -> int:
        self._rec.add(ALL_ENV)
        return len(self._env)


class RecordedLaunch:
    """A ``Launch`` whose reads are recorded; reads like one.

    Its form, entry, entry span, image and opaque words are part of every
    signature and read freely; its parse problems and its environment are
    recorded; anything else counts as ``EVERYTHING``.
    """

    __slots__ = ("_launch", "_rec", "_env")

    _FREE = frozenset({"form", "entry", "entry_span", "span", "image", "opaque", "layout", "container",
                       "release_hints", "entry_unknown", "build", "key"})

    def __init__(self, launch, rec: Recorder, env: Mapping) -> None:
        self._launch, self._rec, self._env = launch, rec, env

    @property
    def raw(self):
        return self._launch

    @property
    def problems(self):
        self._rec.add(PROBLEMS)
        return self._launch.problems

    @property
    def args(self):
        self._rec.add(ARGS)
        return self._launch.args

    @property
    def env(self) -> Mapping:
        return self._env

    @property
    def deployment(self):
        self._rec.add(DEPLOYMENT)
        return self._launch.deployment

    @property
    def linked(self):
        self._rec.add(DEPLOYMENT)
        return self._launch.linked

    def __getattr__(self, name: str) -> Any:
        if name not in self._FREE:
            self._rec.add(EVERYTHING)
        return getattr(self._launch, name)


class RecordedInvocation:
    """An ``Invocation`` whose reads are recorded; reads like one.

    Anything not listed here is passed through and recorded as
    ``EVERYTHING``, so a rule using a new attribute is re-run on every edit
    rather than reused wrongly.
    """

    __slots__ = ("_inv", "recorder", "_env", "_launch")

    def __init__(self, inv: "Invocation", recorder: Recorder) -> None:
        self._inv = inv
        self.recorder = recorder
        self._env = _RecordedEnv(inv.env, recorder)
        self._launch = RecordedLaunch(inv.launch, recorder, self._env)

    @property
    def raw(self) -> "Invocation":
        """The invocation itself, for code that records nothing (fixes)."""
        return self._inv

    @property
    def launch(self) -> RecordedLaunch:
        return self._launch

    # What is part of every signature: read freely.
    @property
    def knowledge(self) -> "ReleaseKnowledge":
        return self._inv.knowledge

    @property
    def version(self) -> str:
        return self._inv.version

    @property
    def derived(self) -> dict:
        return self._inv.derived

    # Flags.
    @property
    def flags(self) -> "list[Flag]":
        self.recorder.add(FLAGS)
        return self._inv.flags

    def flags_for(self, dest: str) -> "list[Flag]":
        self.recorder.add(("flag", dest))
        return self._inv.flags_for(dest)

    def last(self, dest: str) -> "Flag | None":
        self.recorder.add(("flag", dest))
        return self._inv.last(dest)

    def flag_at(self, offset: int, path: str | None = None):
        self.recorder.add(FLAGS)
        return self._inv.flag_at(offset, path)

    # The model.
    @property
    def model(self):
        self.recorder.add(MODEL)
        return self._inv.model

    @property
    def model_source(self) -> str:
        self.recorder.add(MODEL)
        return self._inv.model_source

    @property
    def model_flag(self):
        self.recorder.add(MODEL)
        return self._inv.model_flag

    @property
    def model_name(self) -> str:
        self.recorder.add(MODEL)
        return self._inv.model_name

    @property
    def extra(self):
        self.recorder.add(EXTRA)
        return self._inv.extra

    # The --config file.
    @property
    def config_path(self):
        self.recorder.add(CONFIG)
        return self._inv.config_path

    @property
    def config_launch(self):
        self.recorder.add(CONFIG)
        return self._inv.config_launch

    @property
    def config_state(self) -> str:
        self.recorder.add(CONFIG)
        return self._inv.config_state

    @property
    def config_file(self):
        self.recorder.add(CONFIG)
        return self._inv.config_file

    # The environment.
    @property
    def env(self) -> Mapping:
        return self._env

    def env_value(self, name: str) -> str | None:
        var = self._env.get(name)
        return var.value if var is not None else None

    def __getattr__(self, name: str) -> Any:
        self.recorder.add(EVERYTHING)
        return getattr(self._inv, name)


def memo(inv, key: tuple, compute: Callable[[], Any]) -> Any:
    """``compute()``, once per launch, keyed by ``key``; the reads it made are
    replayed into every later caller's recorder.  Computed without a
    recorder (outside a rule), it is not kept: its reads would be lost."""
    rec = getattr(inv, "recorder", None)
    cache = inv.derived
    full = (key, len(inv.flags) if rec is None else len(inv.raw.flags))
    got = cache.get(full)
    if got is not None:
        if rec is not None:
            rec.update(got[1])
        return got[0]
    if rec is None:
        return compute()
    rec.push()
    try:
        value = compute()
    finally:
        reads = rec.pop()
    cache[full] = (value, reads)
    return value


class View:
    """One launch as rules and derive functions see it.

    ``invocation`` is the launch read by its release's parser, behind a
    recorder; ``model`` its model's resolution (architecture, config.json),
    ``arch`` the architecture's capability facts in this release.  The
    engine calls ``begin`` before each rule and ``reads`` after it.
    """

    def __init__(
        self,
        invocation: "Invocation",
        *,
        path: str,
        base_dir: str | None,
        target: str = "cuda",
        resolve_model: Any = None,
        text_of: Any = None,
        launched_by: Any = None,
    ) -> None:
        self.recorder = Recorder()
        # For a --config file linted on its own: the entry point (``Entry``)
        # of the launch naming it, None when no lint has seen one.  Part of
        # the launch's key, like its release.
        self.launched_by = launched_by
        raw = invocation.raw if isinstance(invocation, RecordedInvocation) else invocation
        self.invocation = RecordedInvocation(raw, self.recorder)
        self.path = path
        self.base_dir = base_dir
        self.target = target
        self._resolve_model = resolve_model
        self._text_of = text_of
        self._model: Any = _UNSET
        self._arch: Any = _UNSET

    # -- the engine's side ------------------------------------------------------

    def begin(self) -> None:
        """Start recording one rule's reads."""
        self.recorder.take()

    def reads(self) -> frozenset:
        """What was read since ``begin``."""
        return self.recorder.take()

    # -- what rules read ----------------------------------------------------------

    def text_of(self, path: str | None = None) -> str | None:
        """The text of the linted document (or of a merged --config file), for fixes."""
        if self._text_of is None:
            return None
        return self._text_of(path or self.path)

    @property
    def knowledge(self) -> "ReleaseKnowledge":
        return self.invocation.knowledge

    @property
    def version(self) -> str:
        return self.invocation.version

    def at_least(self, version: str) -> bool:
        return version_key(self.version) >= version_key(version)

    @property
    def model(self):
        """The model's ``ModelResolution`` (architecture, how it was found), or None."""
        self.recorder.add(MODEL)
        # --hf-overrides takes part in the resolution.
        self.recorder.add(("flag", "hf_overrides"))
        if self._model is _UNSET:
            resolve = self._resolve_model
            self._model = None if resolve is None else resolve(self.invocation.raw, self.base_dir)
        return self._model

    @property
    def architecture(self) -> str | None:
        m = self.model
        return m.architecture if m is not None else None

    @property
    def arch(self):
        """Capability facts of the model's architecture in this release, or None."""
        if self._arch is _UNSET:
            name = self.architecture
            self._arch = None if name is None else self.knowledge.architectures.get(name)
        else:
            self.recorder.add(MODEL)
        return self._arch

    def environ(self, name: str) -> str | None:
        """A variable of servelint's own process environment (model caches)."""
        return os.environ.get(name)


_UNSET = object()
