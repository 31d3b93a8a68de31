"""What a lint returns, and what the next lint of the same document reuses."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, NamedTuple

from ..structs import dataclass, field
from ..diagnostics import Diagnostic
from ..model import Entry, Launch, ParsedDocument
from ..release import ReleaseChoice
from ..settings import Settings
from ..text import SourceText, Span

if TYPE_CHECKING:  # pragma: no cover
    from .. import argv


class ConfigUse(NamedTuple):
    """What a launch naming ``--config FILE`` says about how FILE is read,
    for when FILE is linted on its own: the release, and the entry point
    (``vllm serve`` drops a `false` in it; the api_server module keeps it)."""

    release: ReleaseChoice
    launcher: Entry


# A checked launch's key (``LaunchResult.key``): ``reuse.launch_key``'s
# eight parts, then (launcher, build state, chart state), then the context
# (release version, its reason, config state, settings).
KEY_LENGTH = 8 + 3 + 4


@dataclass(slots=True)
class LaunchResult:
    """A launch's lint: its release, invocation and diagnostics, kept for the next lint."""

    launch: Launch
    release: ReleaseChoice
    _invocation: "argv.Invocation | None"
    diagnostics: list[Diagnostic]
    # rule name -> (its recorded reads, their values, its findings, the launch span)
    by_rule: dict[str, tuple[frozenset, tuple, list[Diagnostic], Span]] = field(default_factory=dict)
    key: tuple = ()
    base: int = 0
    # A launch that only moved reuses its diagnostics (shifted); its
    # invocation, whose spans moved too, is read again only when asked for.
    _reread: "Callable[[], argv.Invocation] | None" = None
    # What a surface made of ``diagnostics`` (the language server's encoded
    # LSP form, ``lsp.forms``), carried with them when a later lint reuses
    # them, moved or not (``reuse.carried``), so that only launches an edit
    # changed are converted again.  The engine never reads it.
    lsp: Any = None
    # Where its diagnostics point in the document, from the launch's start:
    # (first, last) offset when every place is inside the launch, False when
    # one is not, None until ``reuse.relocated`` first asks.
    reach: "tuple[int, int] | bool | None" = None
    # What the rest of the document added to the launch when it was checked
    # (``Launch.linked``, set again on every parse): a Service or an #SBATCH
    # line edited elsewhere makes the same launch one to check again.
    linked: object = None
    # The order of its diagnostics (``order_of``): (first, last) start,
    # from the launch's start, when they are all in the document and
    # strictly in document order; False when not; None until asked.
    order: "tuple[int, int] | bool | None" = None

    def __post_init__(self) -> None:
        self.linked = getattr(self.launch, "linked", None)

    @property
    def count(self) -> int:
        """How many diagnostics it has (a moved result's are not shifted to count them)."""
        return len(self.diagnostics)

    @property
    def context(self) -> tuple:
        """What the launch was checked in besides its own text: (release
        version, the reason for that release, config state, settings).  The
        key ends with it, so that two launches share a key only when they
        share it too."""
        return self.key[-4:]

    def reads_only_itself(self, settings: Settings) -> bool:
        """Whether the launch's findings came from its own text, its release
        and ``settings`` (this very object) alone: no Dockerfile, chart
        values or --config file was read for it, and it is no --config file
        linted on its own (whose release a launch elsewhere decides)."""
        key = self.key
        return (len(key) == KEY_LENGTH and key[-1] is settings and key[1] is not Entry.CONFIG_FILE
                and not key[-2] and not key[-5] and not key[-6])

    @property
    def config_state(self) -> str:
        """The launch's --config file as the lint found it: "" (none, or
        read), "missing" or "not-yaml" (a digest when read)."""
        return self.key[-2] if len(self.key) >= 4 else ""

    @property
    def invocation(self) -> "argv.Invocation | None":
        if self._invocation is None and self._reread is not None:
            self._invocation = self._reread()
            self._reread = None
        return self._invocation


def order_of(result: LaunchResult, path: str) -> tuple[int, int] | bool:
    """``result.order``, measured on first use."""
    got = result.order
    if got is None:
        got = result.order = _order(result.diagnostics, path, result.base)
    return got


def _order(diagnostics: list[Diagnostic], path: str, base: int) -> tuple[int, int] | bool:
    last = None
    for d in diagnostics:
        if d.path != path:
            return False
        key = d.sort_key()
        if last is not None and not last < key:
            return False
        last = key
    if not diagnostics:
        return False
    return diagnostics[0].span.start - base, diagnostics[-1].span.start - base


@dataclass
class LintResult:
    """One document's lint: its parse, diagnostics and launches."""

    path: str
    source: SourceText
    parsed: ParsedDocument
    # Each diagnostic's ``fixes`` are candidates: ``Engine.verified_fixes``
    # (or ``Engine.checked``) keeps those a re-lint shows to work.  Checking
    # costs a re-lint per fix, so it is done only for what is about to be
    # offered (a code action, ``--fix``, the CLI's report), never per keystroke.
    diagnostics: list[Diagnostic]
    launches: list[LaunchResult]
    sources: dict[str, SourceText] = field(default_factory=dict)
    settings: Settings | None = None
    # id(diagnostic) → its verified fixes; the diagnostics live as long as
    # this result, so their ids are stable keys.
    verified: dict[int, list] = field(default_factory=dict, repr=False)

    # Whether ``diagnostics`` are the launches' own, in the launches' order
    # and nothing else (``InLaunchOrder``).
    in_launch_order = False

    def source_of(self, path: str) -> SourceText:
        return self.sources.get(path) or (self.source if path == self.path else SourceText(""))

    def text_of(self, path: str) -> str | None:
        src = self.sources.get(path) or (self.source if path == self.path else None)
        return src.text if src is not None else None


class InLaunchOrder(LintResult):
    """A lint whose diagnostics are its launches' own, one launch after the
    other, nothing added or dropped: the engine found that from each
    launch's ``order`` without reading the findings of a launch that only
    moved (``reuse.MovedResult``), and the list is made when first read.
    The language server does not read it on a keystroke: it publishes each
    launch's kept LSP form."""

    in_launch_order = True

    @property
    def diagnostics(self) -> list[Diagnostic]:
        got = self.__dict__.get("_diagnostics")
        if got is None:
            got = self.__dict__["_diagnostics"] = [d for lr in self.launches for d in lr.diagnostics]
        return got

    @diagnostics.setter
    def diagnostics(self, value: list[Diagnostic] | None) -> None:
        self.__dict__["_diagnostics"] = value
