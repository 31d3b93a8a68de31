"""``# servelint: ignore[rule] -- reason`` comments.

A suppression written at the end of a line silences the named rules on that
line.  One standing on its own line silences them on the next line that is
not blank or a comment, and, when a launch starts there, in the whole launch
(a multi-line shell command cannot carry a comment on its continued lines).
``ignore`` without a list silences every rule.  A suppression that silences
nothing is reported, so stale ones do not pile up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .diagnostics import Diagnostic, Severity
from .model import ParsedDocument
from .settings import Settings
from .text import SourceText, Span

_IGNORE = re.compile(r"^ignore(?:\[(?P<rules>[^\]]*)\])?(?:\s*--\s*(?P<reason>.*))?\s*$")

UNUSED_CODE = "SL010"
UNUSED_NAME = "unused-suppression"


@dataclass
class Suppression:
    span: Span  # the directive text
    rules: frozenset[str]  # names or codes; empty = all
    covers: tuple[int, int]  # document offsets [start, end)
    used: bool = field(default=False)

    def matches(self, d: Diagnostic) -> bool:
        if not (self.covers[0] <= d.span.start < self.covers[1]):
            return False
        return not self.rules or d.name in self.rules or d.code in self.rules


def parse_suppressions(source: SourceText, parsed: ParsedDocument) -> list[Suppression]:
    out: list[Suppression] = []
    for line, body, span in parsed.directives:
        m = _IGNORE.match(body.strip())
        if not m:
            continue
        rules = frozenset(r.strip() for r in (m.group("rules") or "").split(",") if r.strip())
        start = source.line_start(line)
        before = source.text[start : span.start]
        before = before[: before.rfind("#")] if "#" in before else before
        if before.strip():
            covers = (start, source.line_end(line) + 1)
        else:
            nxt = line + 1
            while nxt < source.line_count:
                t = source.line_text(nxt).strip()
                if t and not t.startswith("#"):
                    break
                nxt += 1
            if nxt >= source.line_count:
                covers = (span.end, span.end)
            else:
                lo = source.line_start(nxt)
                hi = source.line_end(nxt) + 1
                for launch in parsed.launches:
                    if lo <= launch.span.start < hi:
                        hi = max(hi, launch.span.end + 1)
                covers = (lo, hi)
        out.append(Suppression(span, rules, covers))
    return out


def apply(path: str, source: SourceText, parsed: ParsedDocument, diagnostics: list[Diagnostic], settings: Settings) -> list[Diagnostic]:
    if not parsed.directives:
        return diagnostics
    sups = parse_suppressions(source, parsed)
    if not sups:
        return diagnostics
    kept = []
    for d in diagnostics:
        hit = False
        if d.path == path:
            for s in sups:
                if s.matches(d):
                    s.used = True
                    hit = True
        if not hit:
            kept.append(d)
    if settings.enabled(UNUSED_NAME, UNUSED_CODE):
        for s in sups:
            if not s.used:
                what = ", ".join(sorted(s.rules)) if s.rules else "any rule"
                kept.append(
                    Diagnostic(
                        path, s.span, settings.severity_for(UNUSED_NAME, UNUSED_CODE, Severity.WARNING),
                        UNUSED_CODE, UNUSED_NAME, "config",
                        f"this suppression silences nothing: no {what} diagnostic here",
                        tags=("unnecessary",),
                    )
                )
    return kept
