"""``servelint check --fix`` / ``--diff``: apply safe fixes to files on disk.

Only *safe* fixes are applied, one per diagnostic (the preferred one), and
never two that overlap.  A file is written atomically (a temporary file in
the same directory, then ``os.replace``), and only if its content on disk is
still what was linted: an edit made meanwhile is never overwritten.
"""

from __future__ import annotations

import difflib
import os
import tempfile
from typing import Callable, TextIO

from ..diagnostics import Diagnostic, Edit, Fix
from ..edits import apply
from ..text import SourceText


def choose_fix(d: Diagnostic) -> Fix | None:
    safe = [f for f in d.fixes if f.safe]
    if not safe:
        return None
    preferred = [f for f in safe if f.preferred]
    return (preferred or safe)[0]


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits (document offsets) to ``text``."""
    return apply(text, edits)


def _overlaps(a: Edit, b: Edit) -> bool:
    if a.path != b.path:
        return False
    if a.span.start < b.span.end and b.span.start < a.span.end:
        return True
    # Two edits at one point: their order would be ambiguous.
    return a.span.start == b.span.start


def _same(a: Edit, b: Edit) -> bool:
    return (a.path, a.span, a.new_text) == (b.path, b.span, b.new_text)


def plan(diags: list[Diagnostic]) -> tuple[dict[str, list[Edit]], set[int]]:
    """Edits per file from safe fixes, skipping fixes that overlap chosen ones."""
    by_path: dict[str, list[Edit]] = {}
    fixed: set[int] = set()
    for i, d in enumerate(diags):
        fx = choose_fix(d)
        if fx is None:
            continue
        planned = [t for e in fx.edits for t in by_path.get(e.path, []) if _same(e, t)]
        if len(planned) == len(fx.edits):
            # The same problem reached twice (a --config file through its
            # launch and on its own): already fixed.
            fixed.add(i)
            continue
        if any(_overlaps(e, t) for e in fx.edits for t in by_path.get(e.path, [])):
            continue
        for e in fx.edits:
            by_path.setdefault(e.path, []).append(e)
        fixed.add(i)
    return by_path, fixed


def write_atomic(path: str, text: str, expected: str) -> bool:
    """Replace ``path`` with ``text`` unless it no longer holds ``expected``.

    Raises OSError when the new text cannot be written; the file is then
    untouched."""
    # Through a symlink, the file it names is fixed; replacing the link
    # itself would leave the target unfixed and the link gone.
    path = os.path.realpath(path)
    try:
        with open(path, "rb") as fh:
            current = fh.read().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        # Not UTF-8: the text was read with replacement characters, and
        # writing it back would change bytes no fix touches.
        return False
    if current != expected:
        return False
    directory = os.path.dirname(os.path.abspath(path))
    mode = os.stat(path).st_mode
    fd, tmp = tempfile.mkstemp(prefix=".servelint-", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.chmod(tmp, mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return True


def apply_to_files(
    diags: list[Diagnostic], source_of: Callable[[str], SourceText], *, write: bool, out: TextIO
) -> tuple[list[Diagnostic], int]:
    """Apply (or show) safe fixes; returns the diagnostics left and an exit status."""
    by_path, fixed = plan(diags)
    status = 0
    applied_paths = set()
    for path, edits in sorted(by_path.items()):
        if path == "-":
            continue
        original = source_of(path).text
        new = apply_edits(original, edits)
        if new == original:
            continue
        if write:
            try:
                written = write_atomic(path, new, original)
            except OSError as exc:  # a read-only directory, a full disk: the file is as it was
                print(f"servelint: {path}: could not write the fixes ({exc.strerror or exc}); not fixed", file=out)
                status = 2
                continue
            if written:
                applied_paths.add(path)
            else:
                print(f"servelint: {path}: changed since it was read (or not UTF-8); not fixed", file=out)
                status = 2
        else:
            out.writelines(
                difflib.unified_diff(
                    original.splitlines(keepends=True), new.splitlines(keepends=True),
                    fromfile=f"a/{path}", tofile=f"b/{path}",
                )
            )
            applied_paths.add(path)
    if not write:
        return diags, status
    left = [d for i, d in enumerate(diags) if not (i in fixed and d.path in applied_paths)]
    n = len(diags) - len(left)
    if n:
        print(f"Fixed {n} problem{'s' if n != 1 else ''}.", file=out)
    return left, status
