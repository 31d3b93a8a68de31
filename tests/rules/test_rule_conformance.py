"""Every rule against vLLM itself, on the cases of tests/conformance/rules/.

For every case (``cases/<family>.json``) and every release with a recorded
verdict (``verdicts/<release>.json``, vLLM's own answer with Model Runner
defaults as on a CUDA GPU, written by ``run_oracle.py``):

* vLLM accepts the launch: servelint (target ``cuda``) reports no error;
* vLLM rejects it with the message of a check a rule mirrors in that release
  (the rules' ``vllm_checks``, their templates from the generated table):
  servelint reports an error of that rule carrying exactly that message;
* vLLM rejects it with a check no rule mirrors: the case tests nothing a
  rule does (an earlier check fires first), and the test says so;
* the case's ``expect`` (the rule it was written to trigger, or null for a
  twin) agrees with vLLM's verdict, so a case cannot quietly stop testing
  its rule.
"""

from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from servelint.knowledge import validators
from servelint.rules import rule_classes

SUITE = Path(__file__).resolve().parent.parent / "conformance" / "rules"
sys.path.insert(0, str(SUITE))

from cases import case_releases, load_cases, model_dir  # noqa: E402
from conformance_lint_harness import lint_argv  # noqa: E402 - registered by conftest.py


def _verdicts() -> dict[str, dict]:
    out = {}
    for path in sorted((SUITE / "verdicts").glob("*.json")):
        doc = json.loads(path.read_text())
        out[doc["vllm_version"]] = doc["verdicts"]
    return out


VERDICTS = _verdicts()
CASES = load_cases()


def _pairs():
    for cid, case in CASES.items():
        for release, verdicts in VERDICTS.items():
            if release in case_releases(case) and cid in verdicts:
                yield pytest.param(cid, release, id=f"{cid}@{release}")


def _norm(message: str | None) -> str:
    """Model paths aside (servelint's and the oracle's model directories)."""
    text = re.sub(r"[\w./<>-]*/models/([\w.-]+)", r"<models>/\1", message or "")
    return " ".join(text.split())


@lru_cache(maxsize=None)
def _templates(release: str) -> tuple:
    """(rule code, compiled template) for every mirrored check in ``release``."""
    out = []
    for cls in rule_classes():
        for check in cls.vllm_checks:
            site = validators.site(check.key, release)
            if site is None:
                continue
            pieces = [re.escape(p) for p in " ".join(site.template.split()).split("{}")]
            out.append((cls.code, re.compile("(?s)" + "(.+?)".join(pieces))))
    return tuple(out)


def _mirrored_by(message: str, release: str) -> set[str]:
    text = " ".join(message.split())
    return {code for code, rx in _templates(release) if rx.match(text)}


def test_every_case_has_its_verdicts():
    assert CASES == {} or VERDICTS, "run tests/conformance/rules/run_oracle.py"
    for cid, case in CASES.items():
        missing = [r for r in sorted(case_releases(case)) if r in VERDICTS and cid not in VERDICTS[r]]
        assert not missing, f"{cid}: no verdict for {missing}: run run_oracle.py --missing"
        assert model_dir(case["argv"][0]) is not None or case["argv"][0].startswith("-"), (cid, case["argv"][0])


@pytest.mark.parametrize(("cid", "release"), list(_pairs()))
def test_servelint_agrees_with_vllm(cid: str, release: str):
    case = CASES[cid]
    verdict = VERDICTS[release][cid]
    argv = list(case["argv"])
    if (d := model_dir(argv[0])) is not None:
        argv[0] = str(d)
    for i, w in enumerate(argv[:-1]):
        if w == "--config":
            argv[i + 1] = str((SUITE / argv[i + 1]).resolve())
    # Linted as a file of the suite's folder, the oracle's working directory:
    # a relative draft model path ("../models/llama") names the same
    # directory for both.
    found = lint_argv(argv, release, env=case.get("env"), target="cuda", path=str(SUITE / "launch.sh"))
    errors = [r for r in found if r.is_error]
    expect = case.get("expect")
    if verdict["result"] == "OK":
        assert not errors, f"vLLM {release} accepts {cid}; servelint: " + "; ".join(
            f"{r.rule.code} {r.finding.message}" for r in errors)
        assert expect is None, f"{cid} is written to trigger {expect}, but vLLM {release} accepts it: narrow its releases"
        return
    message = verdict.get("message") or verdict.get("error") or ""
    mirrored = _mirrored_by(message, release)
    assert mirrored, f"vLLM {release} rejects {cid} with a check no rule mirrors: {message!r}"
    assert expect is None or expect in mirrored, (
        f"{cid} is written to trigger {expect}; vLLM {release} fails it with {sorted(mirrored)}: {message!r}")
    assert expect is not None, f"{cid} is a twin, but vLLM {release} rejects it: {message!r}"
    same = [r for r in errors if r.rule.code in mirrored and _norm(r.finding.vllm_message) == _norm(message)]
    assert same, (f"vLLM {release}: {message!r}; servelint: "
                  + ("; ".join(f"{r.rule.code} {r.finding.vllm_message!r}" for r in errors) or "no error"))
