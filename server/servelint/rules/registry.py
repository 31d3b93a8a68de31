"""Every rule, found and checked once.

A rule is a class with a ``code`` in its own module, ``rules/<family>/
<rule_name>.py``: one rule per module, the module named after the rule
(``tp-divides-attention-heads`` in ``rules/parallel/tp_divides_attention_heads.py``),
in a family package named after the vLLM config class or concern it is
about.  A family's ``_shared.py`` (any ``_`` module) holds what its rules
share and is not a rule module.

The registry imports every rule module, refuses one that does not import
(no rule is skipped silently), and checks what the rest of servelint relies
on: the layout above, codes and names unique, the category one of the JSON
contract's, the severity a ``Severity``, a fix-offering rule saying how safe
its fixes are.  A broken rule stops servelint at its first use, with the
rule named, rather than giving wrong output later.

The documentation of each rule (its docstring's sections) is checked by
``tests/rules/test_registry.py``, not here: it costs time on every start.
"""

from __future__ import annotations

import importlib
import os
from functools import lru_cache

from ..diagnostics import Applicability, Category, Severity
from ..knowledge.versions import version_key
from .base import Rule

# The families, in the order their rules are evaluated and documented (and
# listed by ``servelint rules``); inside a family, by code.  Parse-level and
# meta findings first, then the launch as a whole, its entry point and its
# flags one by one, then the checks of flag combinations.  A family not
# named here follows, by name.
ORDER = (
    "meta",
    "launch",
    "entry",
    "flags",
    "replayssm",
    "mamba",
    "parallel",
    "model",
    "scheduler",
    "quantization",
    "cache",
    "speculative",
    "lora",
    "frontend",
    "compilation",
    "deployment",
)

# Modules of ``servelint.rules`` that are the rule model, not a family.
_MODEL_MODULES = frozenset({"base", "registry"})


class RegistryError(Exception):
    """A rule module that servelint cannot use as it is."""


def rule_module_names() -> tuple[str, ...]:
    """``family.module`` of every rule module, families in ``ORDER`` (then
    by name), modules by name."""
    package = importlib.import_module(__package__)
    found: list[str] = []
    families: set[str] = set()
    # The directories are read directly (pkgutil lists every subdirectory
    # again to look for packages: four times the system calls of a cold start).
    for base in package.__path__:
        for name, is_dir in _entries(base):
            if name.startswith("_") or name in _MODEL_MODULES:
                continue
            if not is_dir:
                raise RegistryError(
                    f"servelint.rules.{name} is not in a family package: a rule lives in rules/<family>/<rule_name>.py")
            families.add(name)
            sub = importlib.import_module(f"{__package__}.{name}")
            for sub_base in sub.__path__:
                found.extend(f"{name}.{m}" for m, m_is_dir in _entries(sub_base) if not m.startswith("_") and not m_is_dir)
    unknown = [n for n in ORDER if n not in families]
    if unknown:
        raise RegistryError(f"rules.registry.ORDER names families that do not exist: {', '.join(unknown)}")
    rank = {name: i for i, name in enumerate(ORDER)}
    return tuple(sorted(found, key=lambda n: (rank.get(n.partition(".")[0], len(rank)), n.partition(".")[0], n)))


def _entries(directory: str) -> list[tuple[str, bool]]:
    """(module name, is a package) of each Python module in ``directory``."""
    out = []
    with os.scandir(directory) as it:
        for entry in it:
            if entry.name.endswith(".py"):
                out.append((entry.name[:-3], False))
            elif entry.is_dir() and os.path.isfile(os.path.join(entry.path, "__init__.py")):
                out.append((entry.name, True))
    return out


@lru_cache(maxsize=1)
def rule_classes() -> tuple[type[Rule], ...]:
    """Every rule class, families in ``ORDER``, by code inside a family."""
    names = rule_module_names()
    rank = {family: i for i, family in enumerate(dict.fromkeys(n.partition(".")[0] for n in names))}
    found: list[tuple[tuple[int, str], type[Rule]]] = []
    problems: list[str] = []
    for name in names:
        try:
            module = importlib.import_module(f"{__package__}.{name}")
        except Exception as exc:
            raise RegistryError(f"rule module servelint.rules.{name} does not import: {exc!r}") from exc
        own = [
            obj for obj in vars(module).values()
            if isinstance(obj, type) and issubclass(obj, Rule) and obj.__module__ == module.__name__
            and getattr(obj, "code", None)
        ]
        if len(own) != 1:
            problems.append(f"{module.__name__}: a rule module holds one rule, not {len(own)}")
        for cls in own:
            expected = str(getattr(cls, "name", "")).replace("-", "_")
            if name.rpartition(".")[2] != expected:
                problems.append(f"{module.__name__}: rule {getattr(cls, 'name', None)!r} belongs in {expected}.py")
            found.append(((rank[name.partition(".")[0]], str(getattr(cls, "code", ""))), cls))
    problems.extend(validate([cls for _, cls in found]))
    if problems:
        raise RegistryError("invalid rules:\n  " + "\n  ".join(problems))
    return tuple(cls for _, cls in sorted(found, key=lambda item: item[0]))


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
        if cls.judges and cls.requires is not None:
            # A problem it judges is left to it: it must run on every launch.
            out.append(f"{where}: judges parse problems, so it cannot have requires")
        if cls.reviewed is not None and version_key(cls.reviewed[0]) > version_key(cls.reviewed[1]):
            out.append(f"{where}: reviewed {cls.reviewed} is not (first, last)")
        for check in cls.vllm_checks:
            prev = checks.setdefault(check.key, check)
            if prev != check:
                out.append(f"{where}: vLLM check {check.key!r} declared differently elsewhere")
    return out


# -- the index: what the engine needs of a rule before importing it -------------
#
# ``rules/_index.py`` is generated from the rule modules (``python
# tools/rule_index.py``; tests/rules/test_registry.py fails when it is stale).
# With it the engine imports only the rules a launch can trigger.  A module
# the index does not list (a rule added since) is imported every time, so a
# stale index costs time, never a rule.


class Entry:
    """One rule module as the index describes it.

    A plain class, not a dataclass: it is defined at every start, and a
    dataclass compiles its generated methods when it is defined."""

    __slots__ = ("module", "code", "name", "requires", "problem", "judges", "releases", "since", "until")

    def __init__(self, module: str, code: str | None, name: str | None, requires: frozenset[str] | None,
                 problem: str | None, judges: frozenset[str], releases: frozenset[str] | None = None,
                 since: str | None = None, until: str | None = None) -> None:
        self.module = module  # "family.rule_name"
        self.code = code  # None: not in the index (imported to be known)
        self.name = name
        # Flag dests and environment variable names, at least one of which a
        # launch must set for the rule to report (``Rule.requires``); None: any launch.
        self.requires = requires
        # A parse-problem rule: the problem it names ("" for a meta finding
        # the engine makes itself); None for a rule that checks launches.
        self.problem = problem
        self.judges = judges
        # The releases the rule applies to (``Rule.applies_to``), known
        # without reading the validators table: the scanned releases for a
        # rule that mirrors vLLM checks, else its since/until bounds.
        self.releases = releases
        self.since = since
        self.until = until

    def __repr__(self) -> str:
        return f"Entry({self.module!r}, {self.code!r})"

    def wanted(self, present: frozenset[str]) -> bool:
        return self.requires is None or not self.requires.isdisjoint(present)

    def applies_to(self, version: str) -> bool:
        if self.releases is not None:
            return version in self.releases
        v = version_key(version)
        return ((self.since is None or v >= version_key(self.since))
                and (self.until is None or v <= version_key(self.until)))


def requirement(item: str) -> str:
    """How ``Rule.requires`` names a flag (``--max-num-seqs``) or a variable
    (``VLLM_USE_V1``) among a launch's names: flags by dest."""
    return item.lstrip("-").replace("-", "_") if item.startswith("-") else item


def index_rows(classes: "tuple[type[Rule], ...] | None" = None) -> list[tuple]:
    """The index as ``tools/rule_index.py`` writes it, from the rule classes."""
    from ..knowledge import validators
    from .base import ParseProblemRule

    scanned = validators.scanned_releases()
    rows = []
    for cls in classes if classes is not None else rule_classes():
        module = cls.__module__.removeprefix(f"{__package__}.")
        requires = None if cls.requires is None else tuple(sorted({requirement(r) for r in cls.requires}))
        problem = cls.problem if issubclass(cls, ParseProblemRule) else None
        releases = None
        if cls.vllm_checks:
            rule = cls()
            releases = tuple(r for r in scanned if rule.applies_to(r))
        rows.append((module, cls.code, cls.name, requires, problem, tuple(sorted(cls.judges)), releases,
                     cls.since, cls.until))
    return rows


@lru_cache(maxsize=1)
def index() -> tuple[Entry, ...]:
    """Every rule module, in the registry's order: the index's entries for
    the modules that exist, then any module it does not list."""
    try:
        from ._index import RULES
    except ImportError:  # no index: every module is imported
        RULES = ()
    on_disk = set(_module_names_on_disk())
    out = [
        Entry(module, code, name, None if requires is None else frozenset(requires), problem, frozenset(judges),
              None if releases is None else frozenset(releases), since, until)
        for module, code, name, requires, problem, judges, releases, since, until in RULES if module in on_disk
    ]
    listed = {e.module for e in out}
    out.extend(Entry(m, None, None, None, None, frozenset()) for m in sorted(on_disk - listed))
    return tuple(out)


def _module_names_on_disk() -> list[str]:
    """``family.module`` of every rule module, without importing anything."""
    package = importlib.import_module(__package__)
    found = []
    for base in package.__path__:
        for family, is_dir in _entries(base):
            if is_dir and not family.startswith("_") and family not in _MODEL_MODULES:
                found.extend(f"{family}.{m}" for m, m_is_dir in _entries(os.path.join(base, family))
                             if not m.startswith("_") and not m_is_dir)
    return found


_loaded: dict[str, type[Rule]] = {}


def load(entry: Entry) -> type[Rule]:
    """The rule class of an index entry, its module imported on first use."""
    cls = _loaded.get(entry.module)
    if cls is None:
        name = f"{__package__}.{entry.module}"
        try:
            module = importlib.import_module(name)
        except Exception as exc:
            raise RegistryError(f"rule module {name} does not import: {exc!r}") from exc
        own = [obj for obj in vars(module).values()
               if isinstance(obj, type) and issubclass(obj, Rule) and obj.__module__ == name and getattr(obj, "code", None)]
        if len(own) != 1:
            raise RegistryError(f"{name}: a rule module holds one rule, not {len(own)}")
        cls = _loaded[entry.module] = own[0]
    return cls


@lru_cache(maxsize=1)
def _index_by_key() -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    for e in index():
        if e.code is not None:
            out[e.code] = out[e.name] = e
    return out


def lookup(key: str) -> type[Rule] | None:
    """The rule with code or name ``key``, importing only its module when
    the index knows it."""
    e = _index_by_key().get(key)
    if e is not None:
        return load(e)
    if all(e.code is not None for e in index()):
        return None
    return by_key().get(key)


@lru_cache(maxsize=1)
def by_key() -> dict[str, type[Rule]]:
    """Rules by code and by name."""
    out: dict[str, type[Rule]] = {}
    for cls in rule_classes():
        out[cls.code] = cls
        out[cls.name] = cls
    return out
