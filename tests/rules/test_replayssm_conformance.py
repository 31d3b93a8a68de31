"""servelint against vLLM itself, for the ReplaySSM / Mamba family.

For every case of ``tests/conformance/replayssm/cases.json`` and every
release with a checked-in verdict file (vLLM's own answer, recorded by
``tests/conformance/run_oracle.py``), servelint must report an error exactly
when vLLM refuses the launch, and when vLLM's error is one of this family's
messages, servelint's findings must include exactly that message.

``verdicts-<ver>.json`` (the oracle's CPU defaults) is compared with
``--target cpu``, ``verdicts-<ver>-gpu.json`` (Model Runner chosen as on a
CUDA GPU) with ``--target cuda``.  Known, explained differences are listed in
``tests/conformance/replayssm/DISAGREEMENTS.md``; a listed case that starts
agreeing fails too, so the list stays true.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from servelint import knowledge

CONFORMANCE = Path(__file__).resolve().parent.parent / "conformance"
SUITE = CONFORMANCE / "replayssm"
sys.path.insert(0, str(CONFORMANCE))

from harness import lint_argv, resolve_case_argv  # noqa: E402

# The messages this family reproduces: vLLM's text must appear verbatim.
FAMILY = (
    "--use-replayssm ",
    "RecoverSSM ",
    "FlashInfer ReplaySSM ",
    "Triton ReplaySSM ",
    "Mamba2 ReplaySSM ",
    "--mamba-block-size can only be set",
    "Model Runner V2 requires Triton.",
    "Unknown Mamba SSU backend",
)


def _cases() -> dict[str, dict]:
    raw = json.loads((SUITE / "cases.json").read_text())
    return {k: (v if isinstance(v, dict) else {"argv": v}) for k, v in raw.items()}


def _verdict_files() -> list[Path]:
    return sorted(SUITE.glob("verdicts-*.json"))


def _known_disagreements() -> dict[tuple[str, str, str], str]:
    """(case, release, target) → reason, from the DISAGREEMENTS.md table."""
    out = {}
    path = SUITE / "DISAGREEMENTS.md"
    if not path.exists():
        return out
    row = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*([^|]+?)\s*\|\s*(cpu|cuda)\s*\|\s*(.+?)\s*\|\s*$")
    for line in path.read_text().splitlines():
        m = row.match(line)
        if not m:
            continue
        case, releases, target, reason = m.groups()
        for rel in re.split(r"[,\s]+", releases.strip()):
            if rel:
                out[(case, rel, target)] = reason
    return out


CASES = _cases()
KNOWN = _known_disagreements()
PARAMS = []
for vf in _verdict_files():
    data = json.loads(vf.read_text())
    target = "cuda" if data["gpu_defaults"] else "cpu"
    for name in CASES:
        PARAMS.append(pytest.param(vf, name, target, id=f"{data['vllm_version']}-{target}-{name}"))


def disagreement(verdict: dict, results) -> str | None:
    """Why servelint's results do not match vLLM's verdict, or None."""
    errors = [r for r in results if r.is_error]
    vllm_error = verdict["result"] == "ERROR"
    if vllm_error and not errors:
        return f"vLLM refuses it ({verdict.get('message', '')!r}); servelint reports no error"
    if errors and not vllm_error:
        return f"vLLM accepts it; servelint reports {[r.finding.message for r in errors]}"
    message = verdict.get("message") or ""
    if vllm_error and message.startswith(FAMILY):
        if message not in [r.finding.vllm_message for r in errors]:
            return f"vLLM says {message!r}; servelint says {[r.finding.vllm_message for r in errors]}"
    return None


@pytest.mark.parametrize("verdict_file,name,target", PARAMS)
def test_agrees_with_vllm(verdict_file: Path, name: str, target: str) -> None:
    data = json.loads(verdict_file.read_text())
    version = data["vllm_version"]
    if version not in knowledge.RELEASES:
        pytest.skip(f"no servelint knowledge for vLLM {version} yet")
    case = CASES[name]
    verdict = data["verdicts"][name]
    results = lint_argv(resolve_case_argv(case["argv"], SUITE), version, env=case.get("env"), target=target)
    problem = disagreement(verdict, results)
    known = KNOWN.get((name, version, target))
    if known is not None:
        assert problem is not None, f"listed in DISAGREEMENTS.md ({known}) but servelint now agrees: remove the row"
        pytest.xfail(known)
    assert problem is None, problem


def test_every_listed_disagreement_names_a_case():
    for case, release, target in KNOWN:
        assert case in CASES, f"DISAGREEMENTS.md lists unknown case {case!r}"
        assert (SUITE / f"verdicts-{release}{'-gpu' if target == 'cuda' else ''}.json").exists(), (case, release, target)
