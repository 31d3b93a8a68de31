#!/usr/bin/env python3
"""The figures of README.md's "Agreement with vLLM" table, measured.

    PYTHONPATH=server python tests/conformance/agreement.py

Lints every case of the conformance suites (and, with ``releases``, the
every-minor suite ``releases/``, a row per release) against every recorded
verdict, with the same comparison as their tests (tests/conformance/
test_conformance.py, tests/rules/test_replayssm_conformance.py,
tests/rules/test_top_conformance.py), and prints per suite: cases x
releases (x targets), the pairs that agree, the pairs that disagree and how
many of those the suite's DISAGREEMENTS.md lists, and the cases involved.
Not run by CI (it takes a minute or two); the tests hold the same facts.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULES_TESTS = HERE.parent / "rules"


def _module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _line(title: str, shape: str, total: int, disagree: set, listed: set) -> None:
    agree = total - len(disagree)
    cases = sorted({p[0] for p in disagree})
    print(f"{title}: {shape} = {total} pairs; {agree} agree ({100 * agree / total:.2f} %); "
          f"{len(disagree)} disagree ({len(disagree & listed)} listed, {len(disagree - listed)} unlisted), "
          f"in {len(cases)} cases: {', '.join(cases)}")
    stale = listed - disagree
    if stale:
        print(f"  listed but agreeing: {sorted(stale)}")


def flag_level(suite: Path = HERE, title: str = "flag level (cases/)", per_release: bool = False) -> None:
    sys.path.insert(0, str(HERE))
    h = _module("conformance_harness", HERE / "conformance_harness.py")
    cases = h.load_cases(suite)
    verdicts = h.load_verdicts(suite)
    known = h.load_known(suite)
    disagree, listed, total = set(), set(), 0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = h.prepare_workdir(Path(tmp))
        for release, vs in verdicts.items():
            mine, rejects = 0, 0
            for i, case in enumerate(cases.values()):
                total += 1
                rejects += (vs.get(case.id) or {}).get("verdict") == "error"
                if any(k.case == case.id and k.covers(release) for k in known):
                    listed.add((case.id, release))
                if h.disagreement(case, release, vs.get(case.id), h.lint(case, release, work, i)) is not None:
                    disagree.add((case.id, release))
                    mine += 1
            rows.append((release, rejects, mine))
    _line(title, f"{len(cases)} x {len(verdicts)}", total, disagree, listed)
    if per_release:
        print("| release | cases | vLLM rejects | agree | disagree (all listed in DISAGREEMENTS.md) |")
        print("|---|---|---|---|---|")
        for release, rejects, mine in rows:
            n = len(cases)
            print(f"| {release} | {n} | {rejects} | {n - mine} ({100 * (n - mine) / n:.1f} %) | {mine} |")


def releases() -> None:
    """The every-minor suite (releases/), with a row per release."""
    flag_level(HERE / "releases", "every minor release (releases/)", per_release=True)


def replayssm() -> None:
    sys.path.insert(0, str(HERE))
    t = _module("replayssm_conformance_figures", RULES_TESTS / "test_replayssm_conformance.py")
    disagree, total = set(), 0
    files = t._verdict_files()
    targets = set()
    for vf in files:
        data = json.loads(vf.read_text())
        version = data["vllm_version"]
        target = "cuda" if data["gpu_defaults"] else "cpu"
        targets.add(target)
        for name, case in t.CASES.items():
            total += 1
            results = t.lint_argv(t.resolve_case_argv(case["argv"], t.SUITE), version,
                                  env=case.get("env"), target=target)
            if t.disagreement(data["verdicts"][name], results) is not None:
                disagree.add((name, version, target))
    listed = set(t.KNOWN)
    releases = len(files) // len(targets)
    _line("ReplaySSM / mamba (replayssm/)", f"{len(t.CASES)} x {releases} x {len(targets)}", total, disagree, listed)


def top25() -> None:
    t = _module("top25_conformance_figures", RULES_TESTS / "test_top_conformance.py")
    disagree, total, releases, missing = set(), 0, 0, 0
    for vf in sorted(t.SUITE.glob("verdicts-*-gpu.json")):
        data = json.loads(vf.read_text())
        version = data["vllm_version"]
        releases += 1
        for name, case in t.CASES.items():
            verdict = data["verdicts"].get(name)
            if verdict is None:
                missing += 1
                continue
            total += 1
            results = t.lint_argv(t.resolve(case["argv"]), version, env=case.get("env"), target="cuda",
                                  path=str(t.SUITE / "launch.sh"))
            if t.disagreement(verdict, results) is not None:
                disagree.add((name, version))
    listed = set(t.KNOWN)
    _line("top-25 catalog rules (top25/)", f"{len(t.CASES)} x {releases}", total, disagree, listed)
    if missing:
        print(f"  {missing} pairs have no verdict yet (run_oracle.py --missing)")


def main() -> int:
    logging.disable(logging.CRITICAL)
    which = sys.argv[1:] or ["flag", "releases", "replayssm", "top25"]
    for name, fn in (("flag", flag_level), ("releases", releases), ("replayssm", replayssm), ("top25", top25)):
        if name in which:
            fn()
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
