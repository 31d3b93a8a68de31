"""What every rule promises the JSON contract and the fix machinery."""

from __future__ import annotations

import json
import subprocess
import sys

from servelint.diagnostics import CATEGORIES, Applicability, Category, Diagnostic, Edit, Fix, Severity
from servelint.fixes.verify import problems
from servelint.rules import rule_classes
from servelint.rules.meta import InternalError
from servelint.text import Span


def test_every_rule_category_is_in_the_json_contract():
    # README, "The JSON output": the categories a consumer may switch on.
    contract = {"unknown-flag", "invalid-value", "duplicate-flag", "deprecated", "incompatible", "parse-error", "config",
                "deployment"}
    assert set(CATEGORIES) == contract
    for cls in rule_classes():
        assert isinstance(cls.category, Category), f"{cls.code} {cls.name}: category {cls.category!r}"
        assert cls.category.value in contract


def test_json_output_carries_category_and_fix_applicability(tmp_path):
    script = tmp_path / "run.sh"
    script.write_text("vllm serve Qwen/Qwen3-8B --quantization awqq --enable-eager=true\n")
    out = subprocess.run([sys.executable, "-m", "servelint", "check", "--format", "json", str(script)],
                         capture_output=True, text=True)
    got = json.loads(out.stdout)["diagnostics"]
    by_code = {d["code"]: d for d in got}
    # `--quantization awqq`: once reported with category "invalid" (not in the contract).
    assert by_code["SL310"]["category"] == "invalid-value"
    for d in got:
        assert d["category"] in CATEGORIES
        for f in d["fixes"]:
            assert f["applicability"] in ("safe", "unsafe", "display-only")
            assert f["safe"] == (f["applicability"] == "safe")


def test_a_fix_must_say_how_safe_it_is():
    edit = Edit("a", Span(0, 1), "")
    try:
        Fix("Remove", [edit])  # type: ignore[call-arg]
    except TypeError:
        pass
    else:
        raise AssertionError("a Fix without applicability was accepted")
    try:
        Fix("Remove", [edit], True)  # type: ignore[arg-type]
    except TypeError:
        pass
    else:
        raise AssertionError("a bare bool was accepted as applicability")
    assert Fix("Remove", [edit], Applicability.SAFE).safe
    assert not Fix("Rename", [edit], Applicability.UNSAFE).safe


def _diag(code: str, severity: Severity, start: int) -> Diagnostic:
    return Diagnostic("run.sh", Span(start, start + 5), severity, code, "x", Category.CONFIG, "m")


def test_a_fix_after_which_a_rule_raises_counts_as_breaking():
    before = [_diag("SL101", Severity.ERROR, 20)]
    crashed = _diag(InternalError.code, InternalError.severity, 0)
    assert crashed.severity is not Severity.ERROR  # SL000 is a warning ...
    why = problems(before[0], [Edit("run.sh", Span(20, 25), "")], before, [crashed])
    assert why == [f"new error: {InternalError.code} m"]  # ... and still breaks the fix
