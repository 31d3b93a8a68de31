"""What a rule is, and what it sees.

A rule is a class with metadata (code, readable name, category, severity,
the flags and environment variables it reads, the releases it applies to)
and a ``check`` method that looks at one ``Invocation`` and yields
``Finding``s.  Its docstring is its documentation, written in Markdown with
the sections *What it does*, *Why*, *Example*, *Fix* and *vLLM source*: the
same text is the hover, ``servelint rule NAME`` and the docs page.

Rules know nothing of LSP or of output formats; the engine turns findings
into ``Diagnostic``s.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Iterable

from ..diagnostics import Applicability, Category, Fix, Related, Severity
from ..derive.view import View
from ..knowledge import validators
from ..knowledge.validators import VllmCheck
from ..knowledge.versions import version_key
from ..text import Span

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Invocation
    from ..knowledge.flags import ReleaseKnowledge


@dataclass(slots=True)
class Finding:
    """One problem a rule found, before the engine makes it a Diagnostic."""

    span: Span
    message: str
    flag: str | None = None  # canonical flag it is about
    severity: Severity | None = None  # None: the rule's own
    related: list[Related] = field(default_factory=list)
    fixes: list[Fix] = field(default_factory=list)
    # The exact text vLLM raises for this problem in this release, when it
    # raises one: error records are joined on it.
    vllm_message: str | None = None
    tags: tuple[str, ...] = ()
    data: dict = field(default_factory=dict)
    path: str | None = None  # None: the document being linted


class Value:
    """A value object of the rules, compared and shown like a dataclass
    over the names in ``_fields``.  Not a @dataclass: making one compiles
    its generated methods at import, ~1 ms per class of a cold check whose
    whole budget is 150 ms.  Unhashable, like a dataclass with ``eq``."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def _key(self) -> tuple:
        return tuple(getattr(self, f) for f in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self._fields)})"


class FrozenValue(Value):
    """A ``Value`` that cannot change after ``__init__`` (which sets its
    fields with ``object.__setattr__``), hashable, like a frozen dataclass."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(self._key())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    category: ClassVar[Category]  # the JSON contract's category
    severity: ClassVar[Severity] = Severity.ERROR
    # Flag dests and environment variable names the rule reads.  "*" means
    # every flag (flag-level rules); "model" means the model and its
    # architecture.  The engine re-runs a rule only when one of these changed.
    reads: ClassVar[frozenset[str]] = frozenset({"*"})
    # Releases the rule applies to, inclusive; None: open-ended.
    since: ClassVar[str | None] = None
    until: ClassVar[str | None] = None
    # The flag a finding is anchored on and the flags it points to.
    anchor: ClassVar[str | None] = None
    partners: ClassVar[tuple[str, ...]] = ()
    # The vLLM checks the rule mirrors: where each is, per release, is
    # generated (knowledge/data/validators.json, tools/knowledge/validators.py).
    vllm_checks: ClassVar[tuple[VllmCheck, ...]] = ()
    # The first and last release whose code the rule was checked against
    # (with the oracle or by reading the source).  A rule that mirrors vLLM
    # checks applies only inside this range, and there only to the releases
    # the generated table finds one of its checks in: a new release is
    # silent until someone reviews the rule for it (tests/rules/test_registry.py).
    reviewed: ClassVar[tuple[str, str] | None] = None
    # How safe the rule's own fixes are (fixes drawn from a record's
    # exampleFix are the record's): empty for a rule that offers none.  The
    # docs page of a rule with fixes has a "Fix safety" section.
    fixes: ClassVar[frozenset[Applicability]] = frozenset()

    def applies_to(self, version: str) -> bool:
        v = version_key(version)
        if self.since is not None and v < version_key(self.since):
            return False
        if self.until is not None and v > version_key(self.until):
            return False
        if self.vllm_checks:
            if self.reviewed is None:
                return False
            first, last = self.reviewed
            if not version_key(first) <= v <= version_key(last):
                return False
            return any(validators.site(c.key, version) is not None for c in self.vllm_checks)
        return True

    def check(self, ctx: "Context") -> Iterable[Finding]:  # pragma: no cover - abstract
        raise NotImplementedError

    @classmethod
    def doc(cls) -> str:
        """The rule's documentation: its docstring, with the "vLLM source"
        section's per-release places rendered from the generated table."""
        text = inspect.cleandoc(cls.__doc__ or "")
        generated = cls.source_lines()
        if not generated:
            return text
        head, sep, rest = text.partition("## vLLM source\n")
        if not sep:
            return f"{text}\n\n## vLLM source\n{generated}"
        return f"{head}{sep}{generated}\n\n{rest}".rstrip()

    @classmethod
    def source_lines(cls) -> str:
        """Where each mirrored check is, per release: one line per wording."""
        out = []
        for check in cls.vllm_checks:
            groups: dict[str, list] = {}
            for release, site in validators.sites(check.key).items():
                groups.setdefault(site.template, []).append((release, site))
            for template, places in groups.items():
                files = {site.file for _, site in places}
                if len(files) == 1:
                    where = f"`{places[0][1].file}` " + ", ".join(f"{r}:{s.line}" for r, s in places)
                else:
                    where = ", ".join(f"{r} `{s.where}`" for r, s in places)
                shown = template if len(template) <= 160 else template[:157] + "..."
                out.append(f"* \"{shown}\": {where}")
        return "\n".join(out)

    @classmethod
    def summary(cls) -> str:
        return cls.doc().split("\n\n", 1)[0].replace("\n", " ")


class Context(View):
    """What a rule may look at for one invocation: a ``derive.View`` (every
    read recorded for incremental re-checking)."""


def vllm_source(ctx: Context, key: str) -> str:
    """``file:line`` of vLLM check ``key`` in the launch's release ("?" when
    the generated table does not have it for that release)."""
    found = validators.site(key, ctx.version)
    return found.where if found is not None else "?"
