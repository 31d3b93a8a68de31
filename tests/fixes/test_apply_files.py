"""``check --fix`` / ``--diff`` on files: safe fixes only, atomic writes, no lost edits."""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

from servelint.diagnostics import Applicability, Diagnostic, Edit, Fix, Severity
from servelint.engine import Engine
from servelint.fixes.apply import apply_to_files, plan
from servelint.settings import Settings
from servelint.text import SourceText, Span

SCRIPT = """\
#!/bin/sh
# servelint: vllm=0.28.0
vllm serve mistralai/Mamba-Codestral-7B-v0.1 \\
  --use-replayssm \\
  --max-modl-len 4096 \\
  --enforce-eager true
"""
FIXED = """\
#!/bin/sh
# servelint: vllm=0.28.0
vllm serve mistralai/Mamba-Codestral-7B-v0.1 \\
  --max-modl-len 4096 \\
  --enforce-eager
"""


def _lint(path: Path):
    text = path.read_text()
    result = Engine(Settings(use_installed_vllm=False)).lint(str(path), text)
    sources = {str(path): result.source}
    return result.diagnostics, lambda p: sources.get(p) or SourceText(Path(p).read_text())


def test_fix_applies_every_safe_fix_and_no_unsafe_one(tmp_path):
    path = tmp_path / "serve.sh"
    path.write_text(SCRIPT)
    os.chmod(path, 0o750)
    diags, source_of = _lint(path)
    assert any(f.safe is False for d in diags for f in d.fixes)  # the did-you-mean rename
    out = io.StringIO()
    left, status = apply_to_files(diags, source_of, write=True, out=out)
    assert status == 0
    assert path.read_text() == FIXED
    assert "Fixed 2 problems." in out.getvalue()
    assert [d.code for d in left] == ["SL101"]  # only an unsafe fix: left for the user
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o750
    assert sorted(os.listdir(tmp_path)) == ["serve.sh"]  # no temporary file left behind


def test_diff_shows_the_fixes_and_writes_nothing(tmp_path):
    path = tmp_path / "serve.sh"
    path.write_text(SCRIPT)
    diags, source_of = _lint(path)
    out = io.StringIO()
    left, status = apply_to_files(diags, source_of, write=False, out=out)
    assert path.read_text() == SCRIPT
    assert len(left) == len(diags) and status == 0
    shown = out.getvalue()
    assert f"--- a/{path}" in shown and "-  --use-replayssm \\" in shown and "+  --enforce-eager" in shown


def test_a_file_changed_since_it_was_read_is_not_overwritten(tmp_path):
    path = tmp_path / "serve.sh"
    path.write_text(SCRIPT)
    diags, source_of = _lint(path)
    edited = SCRIPT.replace("4096", "8192")
    path.write_text(edited)  # the user saved meanwhile
    out = io.StringIO()
    _, status = apply_to_files(diags, source_of, write=True, out=out)
    assert status == 2
    assert path.read_text() == edited
    assert "changed since it was read" in out.getvalue()


def test_a_file_that_is_not_utf8_is_not_rewritten(tmp_path):
    path = tmp_path / "serve.sh"
    raw = SCRIPT.encode().replace(b"# servelint", b"# \xff servelint")
    path.write_bytes(raw)
    text = raw.decode("utf-8", "replace")
    result = Engine(Settings(use_installed_vllm=False)).lint(str(path), text)
    out = io.StringIO()
    _, status = apply_to_files(result.diagnostics, lambda p: result.source, write=True, out=out)
    assert status == 2 and path.read_bytes() == raw


def _diag(path: str, span: Span, fixes: list[Fix]) -> Diagnostic:
    return Diagnostic(path, span, Severity.ERROR, "SL999", "test", "config", "m", fixes=fixes)


def test_the_same_fix_reached_twice_counts_once_and_overlapping_fixes_wait():
    remove = Fix("Remove", [Edit("a", Span(0, 4), "")], applicability=Applicability.SAFE, preferred=True)
    overlapping = Fix("Other", [Edit("a", Span(2, 6), "x")], applicability=Applicability.SAFE, preferred=True)
    unsafe = Fix("Switch", [Edit("a", Span(8, 9), "y")], applicability=Applicability.UNSAFE, preferred=True)
    diags = [_diag("a", Span(0, 1), [remove]), _diag("a", Span(0, 1), [remove]),
             _diag("a", Span(2, 3), [overlapping]), _diag("a", Span(8, 9), [unsafe])]
    by_path, fixed = plan(diags)
    assert by_path == {"a": [Edit("a", Span(0, 4), "")]}
    assert fixed == {0, 1}
