"""What a rule is, what it sees, and the helpers every rule shares.

A rule is a class with metadata (code, readable name, category, severity,
the vLLM checks it mirrors and the releases it was reviewed for) and a
``check`` method that looks at one launch through a ``Context`` and yields
``Finding``s.  Its docstring is its documentation, written in Markdown with
the sections *What it does*, *Why*, *Example*, *Fix*, *Fix safety* (when it
offers fixes), *Evidence* and *vLLM source*: the same text is the hover,
``servelint rule NAME`` and the docs page (``tests/rules/test_registry.py``
checks the sections).

Rules know nothing of LSP or of output formats; the engine turns findings
into ``Diagnostic``s.  What vLLM ends up with for a launch comes from
``servelint.derive``; the helpers here build what rules report (a finding on
a flag with vLLM's message, a removal fix, related locations).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Iterable

from ..structs import dataclass, field
from ..derive.base import FrozenValue, Value  # noqa: F401 - the value objects rules build on
from ..derive.view import View
from ..diagnostics import Applicability, Category, Fix, Related, Severity
from ..knowledge import validators
from ..knowledge.validators import VllmCheck
from ..knowledge.versions import version_key
from ..text import Span

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Flag


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
    # Parse problems (``servelint.parse.problems``) this rule judges with the
    # release's knowledge: the engine leaves them to it instead of reporting
    # them itself.
    judges: ClassVar[frozenset[str]] = frozenset()
    # What a launch must set for the rule to ever report: at least one of
    # these flags (``--name``, on the command line or in its ``--config``
    # file) or environment variables (``VLLM_X``).  The engine does not even
    # import a rule whose requirement the launch does not meet (one module
    # per rule makes importing all of them the larger part of a cold start).
    # None: the rule may report on any launch (defaults, the model, the image).
    requires: ClassVar[tuple[str, ...] | None] = None

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
            # Only a message counts: a code fact is a detail of how the check behaves.
            return any(validators.site(c.key, version) is not None for c in self.vllm_checks if not c.code)
        return True

    def check(self, ctx: "Context") -> Iterable[Finding]:  # pragma: no cover - abstract
        raise NotImplementedError

    @classmethod
    def doc(cls) -> str:
        """The rule's documentation: its docstring, with the "vLLM source"
        section's per-release places rendered from the generated table."""
        import inspect  # documentation only: a check's start does without it

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
                # A code fact (a line of vLLM's code the rule depends on) is
                # shown as code, a message in quotes.
                out.append(f"* `{shown}`: {where}" if check.code else f"* \"{shown}\": {where}")
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


class ParseProblemRule(Rule):
    """A problem a parser finds in the file itself, before any release applies.

    The parsers report these by name (``servelint.parse.problems``); the
    rule class gives each its code, severity and documentation.  It has no
    ``check``: the engine turns the parser's problems into findings.
    """

    problem: ClassVar[str] = ""
    reads = frozenset()

    def check(self, ctx):  # pragma: no cover - the engine uses the parser's problems
        return ()


def release_has(ctx: Context, key: str) -> bool:
    """Whether the launch's release has vLLM fact ``key`` (a check's message
    or a line of code) in the generated table."""
    return validators.has(key, ctx.version)


def vllm_message(ctx: Context, key: str, *values: object) -> str | None:
    """vLLM check ``key``'s message in the launch's release, as its source
    spells it, with each ``{}`` (a formatted value) replaced by the next of
    ``values`` (strings as they are, other values with ``str``); None when
    the generated table does not have the check for that release."""
    found = validators.site(key, ctx.version)
    if found is None:
        return None
    parts = found.template.split("{}")
    if len(parts) != len(values) + 1:
        raise ValueError(f"vLLM check {key!r} formats {len(parts) - 1} values in {ctx.version}, not {len(values)}")
    out = [parts[0]]
    for value, part in zip(values, parts[1:]):
        out.append(value if isinstance(value, str) else str(value))
        out.append(part)
    return "".join(out)


def path_of(ctx: Context, flag: "Flag") -> str:
    """The file a flag is written in (the ``--config`` file for its keys)."""
    return (flag.word.path if flag.word is not None else None) or ctx.path


def related(ctx: Context, flags: Iterable["Flag"], message: str) -> list[Related]:
    """A related location on each flag's name; ``{flag}`` in ``message`` is the flag as written."""
    return [Related(path_of(ctx, f), f.name_span, message.format(flag=f.written)) for f in flags]


def model_note(ctx: Context) -> Related | None:
    """A note on the model word: the facts come from its config.json (or from
    servelint's bundled copy of it, for a Hub id not on this machine)."""
    inv = ctx.invocation
    model = ctx.model
    if inv.model is None or model is None or model.config is None:
        return None
    path = inv.model.path or ctx.path
    arch = f" ({model.architecture})" if model.architecture else ""
    where = "servelint's bundled copy of this model's config.json" if model.source == "table-config" else "this model's config.json"
    return Related(path, inv.model.span, f"facts from {where}{arch}")


def inferred_architecture(ctx: Context) -> str:
    """"architecture X inferred from ..." when the model's architecture is
    only inferred (from the model's name, with no config.json at hand), else
    "".  A finding that rests on an inferred architecture is a warning and
    says so (the evidence policy)."""
    model = ctx.model
    if model is None or not model.inferred:
        return ""
    return f"architecture {model.architecture} inferred from {model.detail.removeprefix('inferred from ')}"


def finding(
    ctx: Context,
    flag: "Flag",
    vllm_message: str | None,
    key: str,
    *,
    message: str | None = None,
    note: str = "",
    related_to: list | None = None,
    severity: Severity | None = None,
    fixes: list | None = None,
) -> Finding:
    """A Finding on ``flag``'s name whose text is vLLM's (``vllm_message``,
    or servelint's own ``message``) plus servelint's clause ``note``, with
    the place of vLLM check ``key`` in the launch's release."""
    text = message or vllm_message or ""
    if note:
        text = f"{text} ({note})"
    return Finding(
        flag.name_span, text, flag=flag.canonical, severity=severity, related=related_to or [],
        fixes=fixes or [], vllm_message=vllm_message, path=path_of(ctx, flag),
        data={"vllm_source": vllm_source(ctx, key)},
    )


def removal_fix(ctx: Context, flags: list["Flag"], title: str) -> Fix | None:
    """An unsafe fix that deletes ``flags`` (all their spellings), or None
    when one of their files' text is not at hand."""
    from ..edits import remove_flag

    edits = []
    for f in flags:
        text = ctx.text_of(path_of(ctx, f))
        if text is None:
            return None
        edits.extend(remove_flag(text, f, path_of(ctx, f)))
    return Fix(title, edits, applicability=Applicability.UNSAFE, preferred=True) if edits else None

