"""The top-25 rule families against vLLM itself.

For every case of ``tests/conformance/top25/cases.json`` and every release
with a recorded verdict file (``verdicts-<ver>-gpu.json``, vLLM's own answer
with Model Runner defaults as on a CUDA GPU, written by
``tests/conformance/top25/run_oracle.py``), servelint (target ``cuda``)
must report an error exactly when vLLM refuses the launch; and when vLLM's
message is one of these families' messages, one of servelint's findings must
carry exactly that text as its ``vllm_message`` (model paths aside).

Known, explained differences are rows of
``tests/conformance/top25/DISAGREEMENTS.md``; a listed pair that starts to
agree fails, so the list stays true.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from servelint import knowledge

CONFORMANCE = Path(__file__).resolve().parent.parent / "conformance"
SUITE = CONFORMANCE / "top25"


from conformance_lint_harness import lint_argv  # noqa: E402 - registered by conftest.py

# The start of every message these families reproduce.
FAMILY = (
    "Total number of attention heads",
    "User-specified max_model_len",
    "max_num_batched_tokens (",
    "Pipeline parallelism is not supported for this model",
    "Number of experts in the model must be greater than 0",
    "enable_expert_parallel must be True to use EPLB",
    "Non-MoE models do not support external data parallel",
    "Unknown quantization method",
    "The model type ",
    "kv_cache_dtype=",
    "Invalid kv_cache_dtype",
    "num_speculative_tokens was provided",
    "num_speculative_tokens must be provided",
    "speculative_draft_tensor_parallel_size=",
    "Consider increasing max_num_batched_tokens",
    "LoRA is not supported for",
    "disable_any_whitespace is only supported",
    "Error: --enable-auto-tool-choice",
    "Chunked prefill is required for",
    "Microbatching currently only supports",
)


def _cases() -> dict[str, dict]:
    raw = json.loads((SUITE / "cases.json").read_text())
    return {k: (v if isinstance(v, dict) else {"argv": v}) for k, v in raw.items()}


def _releases(spec: str) -> set[str]:
    from servelint.rules.base import version_key

    out: set[str] = set()
    all_releases = [f.name[len("verdicts-"):-len("-gpu.json")] for f in SUITE.glob("verdicts-*-gpu.json")]
    for part in re.split(r"[,\s]+", spec.strip()):
        if not part:
            continue
        if part == "all":
            out.update(all_releases)
        elif part.startswith(">="):
            out.update(r for r in all_releases if version_key(r) >= version_key(part[2:]))
        elif part.startswith("<="):
            out.update(r for r in all_releases if version_key(r) <= version_key(part[2:]))
        elif "-" in part:
            lo, hi = part.split("-", 1)
            out.update(r for r in all_releases if version_key(lo) <= version_key(r) <= version_key(hi))
        else:
            out.add(part)
    return out


def _known_disagreements() -> dict[tuple[str, str], str]:
    """(case, release) → reason, from the DISAGREEMENTS.md table."""
    out = {}
    path = SUITE / "DISAGREEMENTS.md"
    if not path.exists():
        return out
    row = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*([^|]+?)\s*\|\s*(.+?)\s*\|\s*$")
    for line in path.read_text().splitlines():
        m = row.match(line)
        if m:
            case, releases, reason = m.groups()
            for rel in _releases(releases):
                out[(case, rel)] = reason
    return out


def resolve(argv: list[str]) -> list[str]:
    out = list(argv)
    if out and not out[0].startswith("-"):
        for base in (SUITE / "models", CONFORMANCE / "models"):
            if (base / out[0] / "config.json").is_file():
                out[0] = str(base / out[0])
                break
    for i, word in enumerate(out[:-1]):
        if word == "--config":
            out[i + 1] = str((SUITE / out[i + 1]).resolve())
    return out


def _scrub(text: str) -> str:
    return re.sub(r"\((?:<models>|/[^)]*)/([\w.-]+)\)", r"(<models>/\1)", text)


def vllm_text(verdict: dict) -> str:
    """vLLM's own message; for argparse errors, the validator text inside it."""
    message = verdict.get("message") or ""
    error = verdict.get("error") or ""
    if verdict.get("exception_class") == "SystemExit":
        m = re.search(r"Value error, (.*?) \[type=", error, re.S)
        if m:
            return m.group(1)
    return message


def disagreement(verdict: dict, results) -> str | None:
    errors = [r for r in results if r.is_error]
    vllm_error = verdict["result"] == "ERROR"
    if vllm_error and not errors:
        return f"vLLM refuses it ({vllm_text(verdict)[:200]!r}); servelint reports no error"
    if errors and not vllm_error:
        return f"vLLM accepts it; servelint reports {[r.finding.message[:120] for r in errors]}"
    text = vllm_text(verdict)
    if vllm_error and text.startswith(FAMILY):
        mine = [_scrub(r.finding.vllm_message) for r in errors if r.finding.vllm_message]
        if _scrub(text) not in mine:
            return f"vLLM says {text[:300]!r}; servelint says {[m[:300] for m in mine]}"
    return None


CASES = _cases()
KNOWN = _known_disagreements()
PARAMS = []
for vf in sorted(SUITE.glob("verdicts-*-gpu.json")):
    data = json.loads(vf.read_text())
    for name in CASES:
        PARAMS.append(pytest.param(vf, name, id=f"{data['vllm_version']}-{name}"))


@pytest.mark.parametrize("verdict_file,name", PARAMS)
def test_agrees_with_vllm(verdict_file: Path, name: str) -> None:
    data = json.loads(verdict_file.read_text())
    version = data["vllm_version"]
    if version not in knowledge.RELEASES:
        pytest.skip(f"no servelint knowledge for vLLM {version}")
    verdict = data["verdicts"].get(name)
    if verdict is None:
        pytest.skip(f"no verdict for {name} in {verdict_file.name}: re-run run_oracle.py")
    case = CASES[name]
    results = lint_argv(resolve(case["argv"]), version, env=case.get("env"), target="cuda",
                        path=str(SUITE / "launch.sh"))
    problem = disagreement(verdict, results)
    known = KNOWN.get((name, version))
    if known is not None:
        assert problem is not None, f"listed in DISAGREEMENTS.md ({known}) but servelint now agrees: remove the row"
        pytest.xfail(known)
    assert problem is None, problem


def test_every_listed_disagreement_names_a_case():
    for case, _release in KNOWN:
        assert case in CASES, f"DISAGREEMENTS.md lists unknown case {case!r}"


def test_every_top_rule_has_a_conformance_case():
    """Each rule of these families fires on at least one case vLLM refuses."""
    from servelint.rules import rule_classes

    names = {c.name for c in rule_classes() if c.__module__.split(".")[-1].startswith("top_")}
    verdicts = json.loads((SUITE / "verdicts-0.33.0-gpu.json").read_text())["verdicts"]
    fired: set[str] = set()
    for name, case in CASES.items():
        if verdicts.get(name, {}).get("result") != "ERROR":
            continue
        for r in lint_argv(resolve(case["argv"]), "0.33.0", env=case.get("env"), target="cuda",
                           path=str(SUITE / "launch.sh")):
            fired.add(r.rule.name)
    assert not names - fired, f"rules without a case vLLM refuses: {sorted(names - fired)}"
