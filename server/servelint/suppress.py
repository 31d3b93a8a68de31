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

from .structs import dataclass, field
from .diagnostics import Diagnostic
from .model import ParsedDocument
from .text import SourceText, Span

# Compiled by re's cache on first use: most files have no directive, and the
# compile is ~0.5 ms of a cold check.
_IGNORE = r"^ignore(?:\[(?P<rules>[^\]]*)\])?(?:\s*--\s*(?P<reason>.*))?\s*$"


@dataclass
class Suppression:
    """A ``# servelint: ignore[...]`` directive and the text it covers."""

    span: Span  # the directive text
    rules: frozenset[str]  # names or codes; empty = all
    covers: tuple[int, int]  # document offsets [start, end)
    used: bool = field(default=False)

    def matches(self, d: Diagnostic) -> bool:
        if not (self.covers[0] <= d.span.start < self.covers[1]):
            return False
        return not self.rules or d.name in self.rules or d.code in self.rules

    @property
    def unused_message(self) -> str:
        """What to say when it silenced nothing."""
        what = ", ".join(sorted(self.rules)) if self.rules else "any rule"
        return f"this suppression silences nothing: no {what} diagnostic here"


def parse_suppressions(source: SourceText, parsed: ParsedDocument) -> list[Suppression]:
    out: list[Suppression] = []
    for line, body, span in parsed.directives:
        m = re.match(_IGNORE, body.strip())
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


def apply(path: str, source: SourceText, parsed: ParsedDocument,
          diagnostics: list[Diagnostic]) -> tuple[list[Diagnostic], list[Suppression]]:
    """The diagnostics no suppression silences, and the suppressions that
    silenced none (the engine reports those)."""
    if not parsed.directives:
        return diagnostics, []
    sups = parse_suppressions(source, parsed)
    if not sups:
        return diagnostics, []
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
    return kept, [s for s in sups if not s.used]


# -- writing a suppression -----------------------------------------------------


def directive_text(rule: str, reason: str = "reason") -> str:
    return f"# servelint: ignore[{rule}] -- {reason}"


@dataclass
class SuppressionEdit:
    """The edit that writes (or extends) a suppression directive."""

    span: Span  # replaced (empty: an insertion)
    new_text: str
    scope: str  # "line" | "launch"


def _argv_shape(doc: ParsedDocument) -> list:
    return [
        (l.form, l.entry, [w.text for w in l.args], sorted((k, v.value) for k, v in l.env.items()))
        for l in doc.launches
    ]


def suppression_edit(
    path: str,
    text: str,
    span: Span,
    rule: str,
    *,
    language_id: str | None = None,
    parsed: ParsedDocument | None = None,
    reason: str = "reason",
) -> SuppressionEdit | None:
    """Where to write a suppression of ``rule`` for a diagnostic at ``span``.

    Tried in order: adding the rule to a suppression already on the line; a
    comment at the end of the line; a comment line above it; a comment line
    above the launch (a ``\\``-continued command or a YAML block scalar cannot
    hold one inside).  A place is taken only if, once written, this module
    reads it as covering the diagnostic and the document's launches still get
    the same argv: a ``#`` at the end of a continued line, inside a folded
    scalar or after a Dockerfile instruction would change what runs.
    """
    from .parse import parse_document

    before = parsed if parsed is not None else parse_document(path, text, language_id)
    shape = _argv_shape(before)
    source = SourceText(text)
    line = source.line_of(span.start)
    newline = "\r\n" if "\r\n" in text else "\n"
    directive = directive_text(rule, reason)

    candidates: list[SuppressionEdit] = []
    for dline, body, dspan in before.directives:
        m = re.match(_IGNORE, body.strip())
        if dline == line and m and m.group("rules") is not None:
            rules = [r.strip() for r in m.group("rules").split(",") if r.strip()]
            if rule in rules:
                return None
            start = dspan.start + body.index("[") + 1
            end = dspan.start + body.index("]")
            candidates.append(SuppressionEdit(Span(start, end), ", ".join(rules + [rule]), "line"))
    line_end = source.line_end(line)
    sep = "" if text[source.line_start(line) : line_end].endswith((" ", "\t")) else "  "
    candidates.append(SuppressionEdit(Span(line_end, line_end), sep + directive, "line"))

    def above(n: int, scope: str) -> SuppressionEdit:
        start = source.line_start(n)
        content = source.line_text(n)
        indent = content[: len(content) - len(content.lstrip(" \t"))]
        return SuppressionEdit(Span(start, start), indent + directive + newline, scope)

    candidates.append(above(line, "line"))
    for launch in before.launches:
        if launch.span.start <= span.start <= launch.span.end:
            first = source.line_of(launch.span.start)
            if first != line:
                candidates.append(above(first, "launch"))
            break

    for cand in candidates:
        new_text = text[: cand.span.start] + cand.new_text + text[cand.span.end :]
        after = parse_document(path, new_text, language_id)
        if _argv_shape(after) != shape:
            continue
        delta = len(cand.new_text) - len(cand.span)
        at = span.start + delta if span.start >= cand.span.end else span.start
        new_source = SourceText(new_text)
        for sup in parse_suppressions(new_source, after):
            if sup.covers[0] <= at < sup.covers[1] and rule in sup.rules:
                wider = sup.covers[1] > new_source.line_end(new_source.line_of(at)) + 1
                return SuppressionEdit(cand.span, cand.new_text, "launch" if wider else "line")
    return None
