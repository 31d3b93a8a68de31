"""What servelint tells the user: diagnostics, their fixes, and the JSON shape.

A ``Diagnostic`` is surface-neutral: the CLI prints it as text, JSON, SARIF
or GitHub annotations, and the language server publishes the same object as
an LSP diagnostic.  Positions are document offsets until ``to_json`` turns them
into LSP ranges.
"""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import Callable

from .structs import dataclass, field
from .text import SourceText, Span


class Severity(IntEnum):
    """LSP's DiagnosticSeverity values, so the server can pass them through."""

    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Severity":
        text = text.strip().lower()
        aliases = {"info": "information", "warn": "warning", "err": "error"}
        return cls[aliases.get(text, text).upper()]

    def lower(self) -> "Severity":
        """One step less severe (error → warning ...), for inferred facts."""
        return Severity(min(self.value + 1, Severity.HINT.value))


class Category(str, Enum):
    """What kind of problem a diagnostic reports: the ``category`` of the
    JSON output, a stable contract (values are only ever added)."""

    UNKNOWN_FLAG = "unknown-flag"
    INVALID_VALUE = "invalid-value"
    DUPLICATE_FLAG = "duplicate-flag"
    DEPRECATED = "deprecated"
    INCOMPATIBLE = "incompatible"
    PARSE_ERROR = "parse-error"
    CONFIG = "config"
    # The launch against the machine its file deploys it on (GPUs, memory, ports).
    DEPLOYMENT = "deployment"

    def __str__(self) -> str:
        return self.value


CATEGORIES = tuple(c.value for c in Category)


class Applicability(str, Enum):
    """How sure a fix is to keep the launch's meaning (Ruff's three levels).

    * ``SAFE``: it removes only the problem (a conflicting or duplicated
      flag, a value given to a switch); ``--fix`` and fix-all apply it.
    * ``UNSAFE``: it changes what the launch does (a rename, a new value, a
      flag added or a feature turned off); offered, never applied for you.
    * ``DISPLAY_ONLY``: a suggestion shown with the diagnostic that is not
      offered as an edit (the right value depends on what the user wants).
    """

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"

    def __str__(self) -> str:
        return self.value


@dataclass(slots=True)
class Edit:
    """Replace ``span`` of the file at ``path`` with ``new_text``."""

    path: str
    span: Span
    new_text: str


@dataclass(slots=True)
class Fix:
    """A change that resolves a diagnostic.

    Every fix says how safe it is (``Applicability``): only ``SAFE`` fixes
    are applied by ``--fix`` and fix-all.
    """

    title: str
    edits: list[Edit]
    applicability: Applicability
    preferred: bool = False
    # The record whose exampleFix this fix was drawn from (None: the rule's
    # own fix).  Such fixes are data from outside and are always re-linted
    # before they are offered.
    record: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.applicability, Applicability):
            raise TypeError(f"Fix {self.title!r}: applicability must be an Applicability, not {self.applicability!r}")

    @property
    def safe(self) -> bool:
        """Whether ``--fix`` and fix-all may apply it."""
        return self.applicability is Applicability.SAFE


@dataclass(slots=True)
class Related:
    """Another place that takes part in a diagnostic (LSP relatedInformation)."""

    path: str
    span: Span
    message: str


@dataclass(slots=True)
class Diagnostic:
    """One finding at ``span`` of ``path``, with its rule, release and fixes."""

    path: str
    span: Span
    severity: Severity
    code: str
    name: str
    category: Category
    message: str
    vllm_version: str | None = None
    flag: str | None = None
    record: str | None = None
    related: list[Related] = field(default_factory=list)
    fixes: list[Fix] = field(default_factory=list)
    tags: tuple[str, ...] = ()  # "deprecated", "unnecessary"
    data: dict = field(default_factory=dict)
    doc_url: str | None = None

    def sort_key(self) -> tuple:
        return (self.path, self.span.start, self.span.end, self.code, self.message)

    def to_json(self, source_of: Callable[[str], SourceText]) -> dict:
        """The ``servelint check --format json`` object for this diagnostic."""
        src = source_of(self.path)
        return {
            "path": self.path,
            "range": src.range(self.span),
            "severity": self.severity.label,
            "code": self.code,
            "name": self.name,
            "category": self.category,
            "flag": self.flag,
            "message": self.message,
            "vllm_version": self.vllm_version,
            "record": self.record,
            "related": [
                {"path": r.path, "range": source_of(r.path).range(r.span), "message": r.message}
                for r in self.related
            ],
            "fixes": [
                {
                    "title": f.title,
                    "safe": f.safe,
                    "applicability": f.applicability.value,
                    "preferred": f.preferred,
                    "edits": [
                        {"path": e.path, "range": source_of(e.path).range(e.span), "newText": e.new_text}
                        for e in f.edits
                    ],
                }
                for f in self.fixes
            ],
        }
