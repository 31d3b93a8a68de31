"""Golden files per rule (actionlint style): a bad input and the exact findings.

``tests/rules/golden/<rule-name>/<case>.<ext>`` is linted as a file of that
name; the expected report, as ``servelint check`` prints it (paths relative,
no colour), sits beside it as ``<case>.<ext>.out``.  Every rule has at least
one case.  Regenerate after an intended change with
``SERVELINT_UPDATE_GOLDEN=1 pytest tests/rules/test_rules_golden.py`` and
review the diff.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from servelint.engine import Engine
from servelint.output import write_text
from servelint.rules import rule_classes
from servelint.settings import Settings
from servelint.text import SourceText

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p for p in GOLDEN.rglob("*") if p.is_file() and not p.name.endswith(".out"))
UPDATE = os.environ.get("SERVELINT_UPDATE_GOLDEN") == "1"
# Rules that cannot be provoked from a file (internal errors) have no case;
# nor can model-runner-v2-triton, which needs --target cpu (these cases are
# linted for CUDA): tests/rules/test_replayssm.py covers it; nor
# too-many-launches, which takes a file of over 1,000 launches:
# tests/engine/test_launch_limit.py and tests/reliability cover it.
NO_CASE = {"internal-error", "file-too-large", "model-runner-v2-triton", "too-many-launches"}


def render(case: Path) -> str:
    engine = Engine(Settings(use_installed_vllm=False))
    rel = case.relative_to(GOLDEN).as_posix()
    old = os.getcwd()
    os.chdir(GOLDEN)
    try:
        result = engine.lint(rel, case.read_text(encoding="utf-8"))
    finally:
        os.chdir(old)
    sources = dict(result.sources)

    def source_of(p: str) -> SourceText:
        return sources.get(p) or SourceText((GOLDEN / p).read_text() if (GOLDEN / p).exists() else "")

    out = io.StringIO()
    write_text(out, result.diagnostics, source_of, color=False)
    # Related locations in other files (a model's config.json) are absolute:
    # show them relative to the golden folder so the files match in any clone.
    return out.getvalue().replace(str(GOLDEN) + os.sep, "")


@pytest.mark.parametrize("case", CASES, ids=[str(c.relative_to(GOLDEN)) for c in CASES])
def test_rule_golden(case: Path) -> None:
    got = render(case)
    expected = case.with_name(case.name + ".out")
    if UPDATE or not expected.exists():
        expected.write_text(got, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"no golden output yet; wrote {expected.name}: review it")
    assert got == expected.read_text(encoding="utf-8")
    rule = case.parent.name
    assert f" {rule}]" in got, f"the case for {rule} does not trigger it"


def test_every_rule_has_a_golden_case():
    have = {p.name for p in GOLDEN.iterdir() if p.is_dir()}
    missing = sorted(c.name for c in rule_classes() if c.name not in have and c.name not in NO_CASE)
    assert not missing, f"rules without a golden case: {missing}"
