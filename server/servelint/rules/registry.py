"""Every rule, found and checked once.

Rules are classes with a ``code`` in the rule modules.  The registry imports
every module, refuses one that does not import (no rule is skipped
silently), and checks what the rest of servelint relies on: codes and names
unique, the category one of the JSON contract's, the severity a
``Severity``, a fix-offering rule saying how safe its fixes are.  A broken
rule stops servelint at its first use, with the rule named, rather than
giving wrong output later.

The documentation of each rule (its docstring's sections) is checked by
``tests/rules/test_registry.py``, not here: it costs time on every start.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from ..diagnostics import Applicability, Category, Severity
from .base import Rule


class RegistryError(Exception):
    """A rule module that servelint cannot use as it is."""


# Family modules that hold no rules (shared helpers of a family).
_NOT_RULES = frozenset({"base", "registry", "vllm_state", "top_facts"})


def rule_module_names() -> tuple[str, ...]:
    """The modules (and family packages' modules) of ``servelint.rules``, in
    the order rules are evaluated and documented (``ORDER`` first, then by name)."""
    from . import ORDER

    package = importlib.import_module(__package__)
    found: list[str] = []
    for info in pkgutil.iter_modules(package.__path__):
        if info.name in _NOT_RULES or info.name.startswith("_"):
            continue
        if info.ispkg:
            sub = importlib.import_module(f"{__package__}.{info.name}")
            found.extend(f"{info.name}.{m.name}" for m in pkgutil.iter_modules(sub.__path__)
                         if not m.name.startswith("_"))
        else:
            found.append(info.name)
    rank = {name: i for i, name in enumerate(ORDER)}
    unknown = [n for n in ORDER if n not in found]
    if unknown:
        raise RegistryError(f"rules.ORDER names modules that do not exist: {', '.join(unknown)}")
    return tuple(sorted(found, key=lambda n: (rank.get(n, len(rank)), n)))


@lru_cache(maxsize=1)
def rule_classes() -> tuple[type[Rule], ...]:
    found: list[type[Rule]] = []
    for name in rule_module_names():
        try:
            module = importlib.import_module(f"{__package__}.{name}")
        except Exception as exc:
            raise RegistryError(f"rule module servelint.rules.{name} does not import: {exc!r}") from exc
        for obj in vars(module).values():
            if (
                isinstance(obj, type)
                and issubclass(obj, Rule)
                and obj.__module__ == module.__name__
                and getattr(obj, "code", None)
            ):
                found.append(obj)
    problems = validate(found)
    if problems:
        raise RegistryError("invalid rules:\n  " + "\n  ".join(problems))
    return tuple(found)


def validate(classes: list[type[Rule]]) -> list[str]:
    """What is wrong with these rule classes (empty: nothing)."""
    out: list[str] = []
    codes: dict[str, str] = {}
    names: dict[str, str] = {}
    checks: dict[str, object] = {}
    for cls in classes:
        where = f"{cls.__module__}.{cls.__qualname__}"
        code, name = getattr(cls, "code", None), getattr(cls, "name", None)
        if not isinstance(code, str) or not code.startswith("SL") or not code[2:].isdigit():
            out.append(f"{where}: code {code!r} is not SL followed by digits")
        elif code in codes:
            out.append(f"{where}: code {code} is also {codes[code]}")
        else:
            codes[code] = where
        if not isinstance(name, str) or not name or name != name.lower() or " " in name:
            out.append(f"{where}: name {name!r} is not a kebab-case name")
        elif name in names:
            out.append(f"{where}: name {name} is also {names[name]}")
        else:
            names[name] = where
        if not isinstance(getattr(cls, "category", None), Category):
            out.append(f"{where}: category {getattr(cls, 'category', None)!r} is not a Category")
        if not isinstance(cls.severity, Severity):
            out.append(f"{where}: severity {cls.severity!r} is not a Severity")
        fixes = cls.fixes
        if not isinstance(fixes, frozenset) or not all(isinstance(a, Applicability) for a in fixes):
            out.append(f"{where}: fixes must be a frozenset of Applicability, not {fixes!r}")
        if cls.vllm_checks and cls.reviewed is None:
            out.append(f"{where}: mirrors vLLM checks but says no release it was reviewed for (reviewed)")
        for check in cls.vllm_checks:
            prev = checks.setdefault(check.key, check)
            if prev != check:
                out.append(f"{where}: vLLM check {check.key!r} declared differently elsewhere")
    return out


@lru_cache(maxsize=1)
def by_key() -> dict[str, type[Rule]]:
    """Rules by code and by name."""
    out: dict[str, type[Rule]] = {}
    for cls in rule_classes():
        out[cls.code] = cls
        out[cls.name] = cls
    return out
