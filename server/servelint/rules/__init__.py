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


def lookup(key: str) -> type[Rule] | None:
    return by_key().get(key)


__all__ = ["Rule", "Finding", "Context", "RegistryError", "rule_classes", "invocation_rules", "lookup", "version_key"]
