"""The catalog rows a rule catches at another place than the row's own
source line (``cases/catalog.json``): each case names its row and the rule,
and the claim holds only if vLLM 0.33.0 rejects the case and servelint
reports an error of that rule on it; for a warning row (``"severity":
"warning"``: vLLM logs and goes on), only if vLLM accepts it and the rule
warns, with no error.  ``tests/conformance/rules/coverage.py``
counts these rows as mirrored; the held-out measure does the same (a launch
built from the row, caught)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance_harness import HERE, engine_for, lint, load_cases, load_verdicts, prepare_workdir
from servelint.diagnostics import Severity

CATALOG = HERE.parents[2] / "shared" / "research" / "vllm-rules-0.33.0.jsonl"
CLAIMS = {cid: c for cid, c in json.loads((HERE / "cases" / "catalog.json").read_text())["cases"].items()
          if isinstance(c, dict) and "catalog" in c}
RELEASE = "0.33.0"


def _rows() -> dict[str, dict]:
    if not CATALOG.exists():  # ../shared is beside the checkout, not in it
        return {}
    return {r["id"]: r for r in map(json.loads, filter(str.strip, CATALOG.read_text().splitlines()))}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return prepare_workdir(tmp_path_factory.mktemp("catalog"))


@pytest.mark.parametrize("cid", sorted(CLAIMS))
def test_the_rule_catches_the_row(cid, workdir):
    claim = CLAIMS[cid]
    rows = _rows()
    severity = "warning" if claim.get("severity") == "warning" else "error"
    if rows:
        row = rows.get(claim["catalog"])
        assert row is not None and row["category"] == "in_scope", claim["catalog"]
        severity = row["severity"]
    verdict = load_verdicts().get(RELEASE, {}).get(cid)
    assert verdict is not None, f"{cid}: no vLLM {RELEASE} verdict: run tests/conformance/run_oracle.py --only catalog/"
    case = load_cases()[cid]
    index = sorted(CLAIMS).index(cid)
    if severity == "warning":
        # vLLM logs and goes on: it accepts the launch, and the rule warns.
        assert verdict["verdict"] == "ok", f"vLLM {RELEASE} rejects {cid}: {verdict.get('message')!r}"
        path = workdir / f"warning-{index:04d}.sh"
        text = case.script()
        path.write_text(text)
        found = engine_for(RELEASE).lint(str(path), text).diagnostics
        codes = sorted({d.code for d in found if d.severity == Severity.WARNING})
        assert claim["rule"] in codes and not [d for d in found if d.severity == Severity.ERROR], (cid, codes)
        return
    assert verdict["verdict"] == "error", f"vLLM {RELEASE} accepts {cid}: the row is not caught this way"
    answer = lint(case, RELEASE, workdir, index)
    codes = sorted({d.code for d in answer.errors})
    assert claim["rule"] in codes, f"{cid}: vLLM {RELEASE}: {verdict.get('message')!r}; servelint: {codes}"
