"""Golden files for the parsers, one folder per launch form (actionlint style).

Each input ``tests/forms/<form>/<case>.<ext>`` sits beside
``<case>.<ext>.parse.json``, the expected parse (see ``servelint.parse.dump``).
Regenerate after an intended change with ``SERVELINT_UPDATE_GOLDEN=1 pytest
tests/test_forms_golden.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from servelint.parse import parse_document
from servelint.parse.dump import dump_document

FORMS = Path(__file__).parent / "forms"
CASES = sorted(
    p
    for p in FORMS.rglob("*")
    if p.is_file() and not p.name.endswith((".json", ".md")) and not p.name.startswith(".")
)
UPDATE = os.environ.get("SERVELINT_UPDATE_GOLDEN") == "1"


@pytest.mark.parametrize("case", CASES, ids=[str(c.relative_to(FORMS)) for c in CASES])
def test_parse_golden(case: Path) -> None:
    text = case.read_text(encoding="utf-8")
    got = dump_document(parse_document(case.name, text), text)
    expected_path = case.with_name(case.name + ".parse.json")
    rendered = json.dumps(got, indent=1, ensure_ascii=False) + "\n"
    if UPDATE or not expected_path.exists():
        expected_path.write_text(rendered, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"no golden file yet; wrote {expected_path.name}: review it")
    assert got == json.loads(expected_path.read_text(encoding="utf-8"))
