"""Re-lint a fixed text: is the diagnostic gone, and nothing new broken?

Fixes drawn from records are data from outside, applied to launches their
authors never saw: before one is offered, the engine lints the text as it
would be after the fix and keeps the fix only if the diagnostic it fixes is
gone from its place and no new error (or parse error) appeared anywhere.
The fix tests check every fix against the same criteria.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Iterable

from .. import LazyLogger
from ..diagnostics import Diagnostic, Edit, Fix, Severity
from ..edits import apply
from ..rules.meta import InternalError
from ..rules.meta import ParseError
from ..text import Span

log = LazyLogger(__name__)

# Re-lints per document version for a rule's own fixes (a fix drawn from a
# record's exampleFix, data from outside, is always checked).  Each re-lint
# costs about a lint of the fixed launch, so a launch with thousands of
# duplicated flags would cost thousands of lints: past this many, such fixes
# (which the fix property tests cover) are offered as they are.
RULE_FIX_BUDGET = 64
# ... and at most this many characters of launches re-linted for them in
# all (a re-lint re-checks only the launch the fix changed): a 100 KB launch
# line with thousands of duplicated flags would otherwise spend seconds (64
# re-lints of the whole line, each re-checking its thousands of findings)
# before its report.
RULE_FIX_CHARS = 100_000

# Codes that count as breakage whatever their severity: the file no longer
# parses, or a rule raised on the fixed text (SL000 is only a warning).
BREAKAGE = frozenset({ParseError.code, InternalError.code})


def by_path(edits: Iterable[Edit]) -> dict[str, list[Edit]]:
    out: dict[str, list[Edit]] = {}
    for e in edits:
        out.setdefault(e.path, []).append(e)
    return out


def _map(offset: int, edits: list[Edit], end: bool) -> int:
    delta = 0
    for e in sorted(edits, key=lambda e: e.span.start):
        if e.span.end < offset or (e.span.end == offset and len(e.span)) or (e.span.end == offset and not end):
            delta += len(e.new_text) - len(e.span)
        elif e.span.start < offset:
            # Inside a changed range: the diagnostic's place is that range.
            return e.span.start + delta + (len(e.new_text) if end else 0)
        else:
            break
    return offset + delta


def mapped(span: Span, edits: list[Edit]) -> Span:
    """Where ``span`` is after the edits (a span inside a changed range
    becomes that range's replacement)."""
    a, b = _map(span.start, edits, False), _map(span.end, edits, True)
    return Span(a, max(a, b))


def same_place(d: Diagnostic, e: Diagnostic, where: Span) -> bool:
    """``e`` (after a fix) is ``d`` (before it) still reported at ``where``."""
    if (e.code, e.path, e.flag) != (d.code, d.path, d.flag):
        return False
    if not len(where):
        return e.span.start < where.start < e.span.end or e.span == where
    return e.span.start < where.end and where.start < e.span.end


def _errors(diags: Iterable[Diagnostic]) -> Counter:
    return Counter((d.path, d.code, d.flag) for d in diags
                   if d.severity == Severity.ERROR or d.code in BREAKAGE)


def new_errors(before: Iterable[Diagnostic], after: list[Diagnostic]) -> list[Diagnostic]:
    extra = _errors(after) - _errors(before)
    return [d for d in after if (d.path, d.code, d.flag) in extra]


def problems(d: Diagnostic, edits: list[Edit], before: Iterable[Diagnostic], after: list[Diagnostic]) -> list[str]:
    """Why a fix of ``d`` whose re-lint gave ``after`` is not a fix (empty: it is)."""
    out = []
    where = mapped(d.span, by_path(edits).get(d.path, []))
    still = [e for e in after if same_place(d, e, where)]
    if still:
        out.append(f"still reported: {still[0].code} {still[0].message}")
    out.extend(f"new error: {e.code} {e.message}" for e in new_errors(before, after))
    return out


class _Verifier:
    """Lints documents as fixes would leave them, through the ``lint`` it is
    given, and keeps the lint of the unfixed text (the baseline) and what
    the rule fixes' re-lints of that baseline cost so far.

    ``lint(main, text, overlay, settings)`` lints the document ``main`` with
    ``text``, reading the files in ``overlay`` (path → text) from there:
    the diagnostics.  ``adopt(result)`` hands it a lint of the unfixed text
    it can take as its last lint of that document.
    """

    def __init__(self, lint: Callable[[str, str, dict, object], list[Diagnostic]],
                 adopt: Callable[[object], None]) -> None:
        self._lint = lint
        self._adopt = adopt
        self._baseline: tuple | None = None
        self.spent = 0  # re-lints of rule fixes for the current baseline
        self.chars = 0  # ... and the characters of launches they re-checked

    def lint(self, main: str, text: str, overlay: dict[str, str], settings) -> list[Diagnostic]:
        return self._lint(main, text, overlay, settings)

    def baseline(self, main: str, text: str, settings, result=None) -> list[Diagnostic]:
        key = (main, text, settings)
        if self._baseline is None or self._baseline[0] != key:
            if result is not None:
                # The lint being verified is this text's baseline already.
                # Handed to the re-linting engine as its last lint, it also
                # makes the first re-lint incremental: on a one-launch
                # 100 KB line that is one full lint saved of about four.
                self._adopt(result)
                self._baseline = (key, result.diagnostics)
            else:
                self._baseline = (key, self.lint(main, text, {}, settings))
            self.spent = self.chars = 0
        return self._baseline[1]


def new_verifier(lint: Callable[[str, str, dict, object], list[Diagnostic]],
                 adopt: Callable[[object], None]) -> _Verifier:
    """A verifier re-linting with ``lint`` (see ``_Verifier``); the engine
    keeps one for the life of its incremental state."""
    return _Verifier(lint, adopt)


def _relint_cost(result, d: Diagnostic, doc_chars: int) -> int:
    """Characters a re-lint for a fix of ``d`` re-checks: its launch (the
    others are reused), or the whole document when no launch holds it."""
    if result is not None and d.path == result.path:
        for lr in result.launches:
            span = lr.launch.span
            if span.start <= d.span.start and d.span.end <= span.end:
                return len(span)
    return doc_chars


def keep_verified(verifier: _Verifier, fixes: list[Fix], d: Diagnostic, main: str,
                  text_of: Callable[[str], "str | None"], settings, result=None,
                  reusable: bool = False) -> list[Fix]:
    """The fixes whose re-lint (of the document ``main``) shows them to fix
    ``d`` and break nothing; the others are dropped, with a log line.

    A fix drawn from a record (``Fix.record``) is checked always; a rule's
    own fixes within ``RULE_FIX_BUDGET`` re-lints per document version (fewer
    for long launches: ``RULE_FIX_CHARS``).  ``result``, the lint that found
    ``d``, saves the verifier a lint of the unfixed text when it may stand in
    for one (``reusable``, and it is a lint of that text)."""
    if not fixes:
        return fixes
    doc = text_of(main)
    if doc is None:
        return fixes
    usable = reusable and result is not None and result.path == main and result.source.text == doc
    before = verifier.baseline(main, doc, settings, result if usable else None)
    kept = []
    cost = None
    for fx in fixes:
        if fx.record is None:
            if cost is None and verifier.spent < RULE_FIX_BUDGET:
                cost = _relint_cost(result, d, len(doc))
            if verifier.spent >= RULE_FIX_BUDGET or verifier.chars + cost > RULE_FIX_CHARS:
                kept.append(fx)
                continue
            verifier.spent += 1
            verifier.chars += cost
        texts = {}
        for p, edits in by_path(fx.edits).items():
            original = text_of(p)
            if original is None:
                break
            texts[p] = apply(original, edits)
        else:
            after = verifier.lint(main, texts.get(main, doc), texts, settings)
            why = problems(d, fx.edits, before, after)
            if not why:
                kept.append(fx)
                continue
            log.info("fix %r of %s dropped after re-lint: %s", fx.title, d.code, "; ".join(why))
    return kept
