"""The exact text after each fix of the seed records, in every form.

``tests/fixes/golden/<form>/<case>`` is linted (vLLM 0.28.0, whose messages
the seed records carry); ``<case>.fixes`` lists each fix offered (code,
place, preferred, safe, title) and ``<case>.<title slug>.fixed`` holds the
file after that fix.  ``servelint check --fix`` on a copy must give the text
of the preferred safe fix, and ``--diff`` must show it without writing.
Regenerate with ``SERVELINT_UPDATE_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from fix_harness import Case  # noqa: E402

from servelint.edits import apply  # noqa: E402
from servelint.text import SourceText  # noqa: E402

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p for p in GOLDEN.rglob("*") if p.is_file() and p.suffix not in (".fixed", ".fixes"))
UPDATE = os.environ.get("SERVELINT_UPDATE_GOLDEN") == "1"
BIN = Path(sys.executable).with_name("servelint")

ARCH = "1b37c46a30753abd"
SPEC = "2844f4a584889da7"
# What each seed record offers: (title, safe, preferred).
OFFERED = {
    ARCH: [("Remove --use-replayssm", True, True),
           ("Switch to nvidia/Nemotron-H-8B-v1 with --mamba-cache-mode align --mamba-backend triton", False, False)],
    SPEC: [("Remove --speculative-config (speculative decoding)", True, True)],
}


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60].rstrip("-")


def _read(path: Path) -> str:
    with open(path, encoding="utf-8", newline="") as fh:
        return fh.read()


def _lint(case: Path):
    text = _read(case)
    return text, Case({str(case): text}, str(case)).lint()


def _expect(path: Path, got: str) -> None:
    if UPDATE or not path.exists():
        path.write_bytes(got.encode("utf-8"))
        if not UPDATE:
            pytest.fail(f"no golden file yet; wrote {path.name}: review it")
    assert got == _read(path)


def _cli(*args: str) -> subprocess.CompletedProcess:
    exe = [str(BIN)] if BIN.exists() else [sys.executable, "-m", "servelint"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(exe + ["check", "--no-config", *args], capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize("case", CASES, ids=[str(c.relative_to(GOLDEN)) for c in CASES])
def test_fixed_text(case: Path) -> None:
    text, result = _lint(case)
    src = SourceText(text)
    listing, wanted = [], set()
    for d in result.diagnostics:
        line, col = src.position(d.span.start)
        if d.record in OFFERED:
            offered = [(f.title, f.safe, f.preferred) for f in d.fixes]
            assert offered == OFFERED[d.record], f"{d.code}: {offered}"
        for fx in d.fixes:
            assert {e.path for e in fx.edits} == {str(case)}
            name = f"{case.name}.{slug(fx.title)}.fixed"
            wanted.add(name)
            flags = ("preferred " if fx.preferred else "") + ("safe" if fx.safe else "unsafe")
            listing.append(f"{d.code} {line + 1}:{col + 1} [{flags}] {fx.title} -> {name}\n")
            _expect(case.with_name(name), apply(text, fx.edits))
    assert any(d.record in OFFERED for d in result.diagnostics), "no seed record's diagnostic"
    _expect(case.with_name(case.name + ".fixes"), "".join(listing))
    stale = {p.name for p in case.parent.glob(case.name + ".*.fixed")} - wanted
    assert not stale, f"golden files for fixes no longer offered: {sorted(stale)}"


@pytest.mark.parametrize("case", CASES, ids=[str(c.relative_to(GOLDEN)) for c in CASES])
def test_check_fix_writes_the_safe_fix(case: Path, tmp_path: Path) -> None:
    text, result = _lint(case)
    safe = [f for d in result.diagnostics for f in d.fixes if f.safe and f.preferred]
    assert len(safe) == 1
    expected = _read(case.with_name(f"{case.name}.{slug(safe[0].title)}.fixed"))
    copy = tmp_path / case.name
    shutil.copyfile(case, copy)

    shown = _cli("--diff", str(copy))
    assert _read(copy) == text, "--diff changed the file"
    assert f"+++ b/{copy}" in shown.stdout and shown.returncode == 1, shown.stdout + shown.stderr

    fixed = _cli("--fix", str(copy))
    assert _read(copy) == expected, fixed.stdout + fixed.stderr
    assert "Fixed 1 problem." in fixed.stdout
    # The safe fix was the only problem: the file is now clean.
    assert fixed.returncode == 0, fixed.stdout
