"""Apply an offered fix, re-lint, and say what is wrong with the result.

``fix_failures`` is the property every fix must have: its edits are exact
(in bounds, non-overlapping, LSP ranges that map back to the same offsets)
and local (inside the lines of a launch); applying them leaves every byte
outside the edit ranges as it was; and after a re-lint the diagnostic it
fixes is gone from its place, with no new error or parse error anywhere.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass

from servelint.diagnostics import Diagnostic, Edit, Fix, Severity
from servelint.engine import Engine, LintResult
from servelint.engine.io import read_text_file as _read_text_file
from servelint.edits import apply
from servelint.fixes.verify import BREAKAGE, by_path, mapped, same_place
from servelint.settings import Settings
from servelint.text import SourceText, Span


@dataclass
class Case:
    """Files by absolute path (anything else is read from disk) and the one linted."""

    files: dict[str, str]
    main: str
    # True: only the fixes the engine's re-lint keeps (what is offered);
    # False: every candidate, to check the criteria themselves.
    verify: bool = True

    def read(self, path: str) -> str | None:
        if path in self.files:
            return self.files[path]
        return _read_text_file(path)

    def lint(self) -> LintResult:
        engine = Engine(Settings(use_installed_vllm=False), read_file=self.read)
        result = engine.lint(self.main, self.files[self.main])
        if self.verify:
            result.diagnostics = engine.checked(result)
        return result

    def text(self, path: str) -> str | None:
        return self.read(path)


def _line_range(text: str, span: Span) -> Span:
    start = text.rfind("\n", 0, span.start) + 1
    end = text.find("\n", span.end)
    return Span(start, len(text) if end < 0 else end + 1)


def _regions(result: LintResult, path: str, text: str) -> list[Span]:
    """The lines of every launch written in ``path``, and of the resource
    each runs in: a fix may touch only these."""
    out = []
    for lr in result.launches:
        launches = [lr.launch]
        inv = lr.invocation
        if inv is not None and inv.config_launch is not None:
            launches.append(inv.config_launch)
        for launch in launches:
            in_path = launch is lr.launch and path == result.path
            if launch is not lr.launch:
                in_path = any((w.path or "") == path for w in launch.args)
            if in_path:
                line = _line_range(text, launch.span)
                # A removed last line takes the newline (or continuation) before it.
                out.append(Span(max(0, line.start - 1), line.end))
        # And the resource that says where it runs (the container, the
        # compose service): a deployment fix asks it for more GPUs.
        dep = getattr(lr.launch, "deployment", None)
        if path == result.path and dep is not None and dep.span is not None:
            out.append(_line_range(text, dep.span))
    return out


def _exact(text: str, edits: list[Edit]) -> list[str]:
    bad = []
    src = SourceText(text)
    ordered = sorted(edits, key=lambda e: (e.span.start, e.span.end))
    for e in ordered:
        if not 0 <= e.span.start <= e.span.end <= len(text):
            bad.append(f"edit {e} out of bounds")
            continue
        r = src.range(e.span)
        back = Span(src.offset_at(r["start"]["line"], r["start"]["character"]),
                    src.offset_at(r["end"]["line"], r["end"]["character"]))
        if back != e.span:
            bad.append(f"edit {e}: LSP range {r} maps back to {back}")
        if text[e.span.start : e.span.end] == e.new_text:
            bad.append(f"edit {e} changes nothing")
    for a, b in zip(ordered, ordered[1:]):
        if a.span.end > b.span.start or a.span.start == b.span.start:
            bad.append(f"edits overlap: {a} and {b}")
    return bad


def _outside_unchanged(old: str, new: str, edits: list[Edit]) -> bool:
    at = shift = 0
    for e in sorted(edits, key=lambda e: e.span.start):
        if old[at : e.span.start] != new[at + shift : e.span.start + shift]:
            return False
        shift += len(e.new_text) - len(e.span)
        at = e.span.end
    return old[at:] == new[at + shift :]


# What a form rejects: the edit itself, not the change it makes, is wrong.
_FORM_BREAKAGE = BREAKAGE | {"SL006"}


def _breakage(before: list[Diagnostic], after: list[Diagnostic]) -> list[str]:
    had = {(d.path, d.code) for d in before}
    return [f"breaks the file: {d.code} {d.message}" for d in after
            if d.code in _FORM_BREAKAGE and (d.path, d.code) not in had]


def _judged(d: Diagnostic, edits: list[Edit], before: list[Diagnostic], after: list[Diagnostic]) -> list[str]:
    """(a) and (b), judged here rather than by ``fixes.verify.problems``: the
    engine offers only the fixes that module accepts, so judging with it
    would pass whatever it let through.  Only the geometry (where a place
    is after the edits) is shared with it."""
    where = mapped(d.span, by_path(edits).get(d.path, []))
    out = [f"still reported: {e.code} {e.message}" for e in after if same_place(d, e, where)][:1]

    def errors(diags) -> Counter:
        return Counter((x.path, x.code, x.flag) for x in diags if x.severity == Severity.ERROR or x.code in BREAKAGE)

    for (path, code, flag), n in (errors(after) - errors(before)).items():
        out.append(f"new error: {code} on {flag or 'the launch'} in {os.path.basename(path)} (x{n})")
    return out


def fix_failures(case: Case, before: LintResult, d: Diagnostic, fx: Fix, form_only: bool = False) -> list[str]:
    """What is wrong with applying ``fx`` (empty: nothing).  With ``form_only``,
    only whether the edits are exact and leave a file the form accepts."""
    if not fx.edits:
        return ["a fix with no edits"]
    files = dict(case.files)
    bad: list[str] = []
    changed = by_path(fx.edits)
    for path, edits in changed.items():
        text = case.text(path)
        if text is None:
            return [f"edits a file that cannot be read: {path}"]
        bad += _exact(text, edits)
        if bad:
            return bad
        regions = _regions(before, path, text)
        for e in edits:
            if not any(r.start <= e.span.start and e.span.end <= r.end for r in regions):
                bad.append(f"edit {e} reaches outside the launch")
        new = apply(text, edits)
        if not _outside_unchanged(text, new, edits):
            bad.append(f"bytes outside the edits changed in {path}")
        files[path] = new
    after = Case(files, case.main, case.verify).lint()
    if form_only:
        bad += _breakage(before.diagnostics, after.diagnostics)
    else:
        bad += _judged(d, fx.edits, before.diagnostics, after.diagnostics)
    if bad:
        bad.append("text after the fix:\n" + "\n".join(
            f"--- {os.path.basename(p)}\n{files[p]}" for p in changed))
    return bad


def all_failures(case: Case, form_only: bool = False) -> tuple[int, list[str]]:
    """Every offered fix of every diagnostic, checked; (fixes seen, failures)."""
    before = case.lint()
    seen, out = 0, []
    for d in before.diagnostics:
        for fx in d.fixes:
            seen += 1
            for why in fix_failures(case, before, d, fx, form_only):
                out.append(f"{os.path.basename(case.main)}: {d.code} {d.name} / {fx.title!r}: {why}")
    return seen, out
