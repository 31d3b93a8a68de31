"""The rules.

Each rule is one module in a family package, ``rules/<family>/<rule_name>.py``,
with its documentation, its check and its fixes; ``registry`` finds and
checks them all, and ``registry.ORDER`` says in which order the families are
evaluated and documented.  Adding a rule is adding a module: nothing else
lists it.
"""

from __future__ import annotations

from functools import lru_cache

from .base import Context, Finding, ParseProblemRule, Rule, version_key
from .registry import RegistryError, by_key, rule_classes


@lru_cache(maxsize=1)
def invocation_rules() -> tuple[Rule, ...]:
    """An instance of every rule that checks a launch (the parse-level ones
    have nothing to check: the engine reports the parser's problems)."""
    return tuple(cls() for cls in rule_classes() if not issubclass(cls, ParseProblemRule))


@lru_cache(maxsize=1)
def problem_rules() -> tuple[dict[str, type[ParseProblemRule]], frozenset[str]]:
    """The rule of each parse problem the engine reports itself, and the
    problems invocation rules judge instead (``Rule.judges``)."""
    by_problem: dict[str, type[ParseProblemRule]] = {}
    judged: set[str] = set()
    for cls in rule_classes():
        if issubclass(cls, ParseProblemRule):
            if cls.problem:
                if cls.problem in by_problem:
                    raise RegistryError(f"parse problem {cls.problem!r} has two rules: {by_problem[cls.problem].code} and {cls.code}")
                by_problem[cls.problem] = cls
        judged.update(cls.judges)
    return by_problem, frozenset(judged)


def lookup(key: str) -> type[Rule] | None:
    return by_key().get(key)


__all__ = ["Rule", "Finding", "Context", "RegistryError", "rule_classes", "invocation_rules", "problem_rules", "lookup", "version_key"]
