"""The rules.

Each rule is one module in a family package, ``rules/<family>/<rule_name>.py``,
with its documentation, its check and its fixes; ``registry`` finds and
checks them all, and ``registry.ORDER`` says in which order the families are
evaluated and documented.  Adding a rule is adding a module: nothing else
lists it.
"""

from __future__ import annotations

from functools import lru_cache

from ..derive.speculative import SPECULATIVE_DESTS
from .base import Context, Finding, ParseProblemRule, Rule, version_key
from . import registry
# Names of this package's modules double as attributes of the package: a
# family package named ``load`` or ``index`` would shadow a function imported
# here, so the registry's are called through ``registry``.
from .registry import RegistryError, by_key, lookup, rule_classes

# In ``Rule.requires``: the file says where the launch runs (GPUs, shared
# memory, ports of a Kubernetes, compose or SkyPilot deployment).
DEPLOYMENT = "@deployment"

_instances: dict[type[Rule], Rule] = {}


def _instance(cls: type[Rule]) -> Rule:
    rule = _instances.get(cls)
    if rule is None:
        rule = _instances[cls] = cls()
    return rule


@lru_cache(maxsize=1)
def invocation_rules() -> tuple[Rule, ...]:
    """An instance of every rule that checks a launch (the parse-level ones
    have nothing to check: the engine reports the parser's problems)."""
    return tuple(_instance(cls) for cls in rule_classes() if not issubclass(cls, ParseProblemRule))


@lru_cache(maxsize=1024)
def rules_for(present: frozenset[str], version: str | None = None) -> tuple[Rule, ...]:
    """The rules that check a launch setting ``present`` (flag dests and
    environment variable names, ``present_in``) under release ``version``
    (None: any): those whose ``requires`` it meets and that apply to the
    release, in the registry's order.  Only their modules are imported.
    Kept per flag set: every keystroke asks again for the launch it edits,
    and the answer is a walk over the whole index."""
    out = []
    for entry in registry.index():
        if entry.problem is None and entry.wanted(present) and (
                version is None or entry.code is None or entry.applies_to(version)):
            cls = registry.load(entry)
            if not issubclass(cls, ParseProblemRule):
                out.append(_instance(cls))
    return tuple(out)


def present_in(inv) -> frozenset[str]:
    """What an invocation sets, as ``Rule.requires`` names it: the dest of
    each flag (an unknown flag by its written name), each environment
    variable the file sets."""
    names = {f.dest or registry.requirement(f.written if f.written.startswith("-") else "--" + f.written) for f in inv.flags}
    names.update(inv.env)
    if not names.isdisjoint(SPECULATIVE_DESTS):
        # The --spec-* shorthands are keys of --speculative-config: one setting.
        names.update(SPECULATIVE_DESTS)
    launch = inv.launch
    if launch.deployment is not None or launch.linked is not None:
        names.add(DEPLOYMENT)
    return frozenset(names)


@lru_cache(maxsize=1)
def problem_rules() -> tuple[dict[str, type[ParseProblemRule]], frozenset[str]]:
    """The rule of each parse problem the engine reports itself, and the
    problems invocation rules judge instead (``Rule.judges``)."""
    by_problem: dict[str, type[ParseProblemRule]] = {}
    judged: set[str] = set()
    for entry in registry.index():
        if entry.code is not None and entry.problem is None:
            judged.update(entry.judges)  # known without importing the rule
            continue
        cls = registry.load(entry)
        if issubclass(cls, ParseProblemRule):
            if cls.problem:
                if cls.problem in by_problem:
                    raise RegistryError(f"parse problem {cls.problem!r} has two rules: {by_problem[cls.problem].code} and {cls.code}")
                by_problem[cls.problem] = cls
        judged.update(cls.judges)
    return by_problem, frozenset(judged)


__all__ = ["Rule", "Finding", "Context", "RegistryError", "rule_classes", "invocation_rules", "rules_for",
           "present_in", "problem_rules", "lookup", "version_key"]
