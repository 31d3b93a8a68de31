"""Every offered fix, applied and re-linted, fixes its diagnostic and breaks nothing.

Over every rule's golden cases, every form's golden inputs, the examples,
each golden rule launch written again in every form (``forms.py``), and the
seed records' launches in every form with the conflicting flag first, in the
middle and last: for each fix of each diagnostic, apply its edits, re-lint,
and check (``harness.fix_failures``):

(a) the diagnostic is gone from its place (same code, same flag);
(b) no new error and no parse error anywhere;
(c) the edits are exact and local, and every byte outside them is unchanged.

The engine re-lints fixes itself before offering them (``fixes.verify``:
always for a record's, within a budget for the rules' own), so (a) and (b)
are judged by the harness's own count, not by that module: a verifier that
let a broken fix through fails here.  ``test_edits_never_break_the_form``
switches the verifier off and checks that the edits themselves never leave
a file that does not parse or that its form rejects (a Kubernetes number, a
broken exec array), whatever the rule or record chose to change.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from forms import RENDERERS, Spec, spec_of  # noqa: E402
from fix_harness import Case, all_failures  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CORPORA = (ROOT / "tests" / "rules" / "golden", ROOT / "tests" / "forms", ROOT / "examples")
NGRAM = '{"method":"ngram","num_speculative_tokens":3}'
MAMBA2 = "mistralai/Mamba-Codestral-7B-v0.1"
NEMOTRON_H = "nvidia/Nemotron-H-8B-Base-8K"


def _corpus() -> list[Path]:
    out = []
    for base in CORPORA:
        for p in sorted(base.rglob("*")):
            if p.is_file() and not p.name.endswith((".out", ".json", ".md")) and not p.name.startswith("."):
                out.append(p)
    return out


def _around(flag: list[list[str]]) -> list[list[list[str]]]:
    """The conflicting flag(s) first, in the middle and last among others."""
    others = [["--port", "8000"], ["--max-model-len", "4096"]]
    return [flag + others, others[:1] + flag + others[1:], others + flag]


def _seed_specs() -> dict[str, Spec]:
    specs: dict[str, Spec] = {}
    for i, groups in enumerate(_around([["--use-replayssm"]])):
        specs[f"arch-{i}"] = Spec("0.28.0", MAMBA2, groups)
    specs["arch-alone"] = Spec("0.28.0", MAMBA2, [["--use-replayssm"]])
    for i, groups in enumerate(_around([["--speculative-config", NGRAM]])):
        specs[f"spec-{i}"] = Spec("0.28.0", NEMOTRON_H, [["--use-replayssm"]] + groups)
    specs["spec-dotted"] = Spec("0.28.0", NEMOTRON_H, [
        ["--use-replayssm"], ["--speculative-config.method", "ngram"],
        ["--speculative-config.num_speculative_tokens", "3"],
    ])
    specs["both"] = Spec("0.28.0", MAMBA2, [["--use-replayssm"], ["--speculative-config", NGRAM]])
    # Value changes and a rename: FlashInfer is the speculative backend from 0.33.0.
    specs["spec-0.33"] = Spec("0.33.0", NEMOTRON_H, [["--use-replayssm"], ["--speculative-config", NGRAM],
                                                   ["--mamba-backend", "triton"], ["--enable-prefix-caching"]])
    return specs


def _rendered(name: str, spec: Spec) -> list[tuple[str, Case]]:
    out = []
    for render in RENDERERS:
        r = render(spec)
        d = f"/servelint-fix-property/{name}"
        files = {f"{d}/{r.name}": r.text, **{f"{d}/{k}": v for k, v in r.files.items()}}
        out.append((f"{name}/{r.name}", Case(files, f"{d}/{r.name}")))
    return out


def _rule_case_specs() -> dict[str, Spec]:
    """Each golden rule case's shell launch, to be written in every form."""
    out = {}
    golden = CORPORA[0]
    for p in sorted(golden.rglob("*")):
        if not p.is_file() or p.name.endswith(".out"):
            continue
        result = Case({str(p): p.read_text(encoding="utf-8")}, str(p)).lint()
        for i, lr in enumerate(result.launches):
            spec = spec_of(lr.launch, lr.release.version)
            if spec is not None:
                out[f"{p.relative_to(golden).as_posix()}#{i}"] = spec
    return out


CORPUS = _corpus()
SEEDS = [c for name, spec in _seed_specs().items() for c in _rendered(name, spec)]
VARIANTS = [c for name, spec in _rule_case_specs().items() for c in _rendered(name, spec)]


def _check(case: Case) -> int:
    seen, failures = all_failures(case)
    assert not failures, f"{len(failures)} fix(es) fail:\n\n" + "\n\n".join(failures)
    return seen


@pytest.mark.parametrize("path", CORPUS, ids=[str(p.relative_to(ROOT)) for p in CORPUS])
def test_fixes_of_the_corpus(path: Path) -> None:
    _check(Case({str(path): path.read_text(encoding="utf-8")}, str(path)))


@pytest.mark.parametrize("case", [c for _, c in SEEDS], ids=[n for n, _ in SEEDS])
def test_fixes_of_the_seed_launches_in_every_form(case: Case) -> None:
    # Every one of these launches breaks a seed record's rule: it must get a fix.
    assert _check(case) > 0, "no fix offered"


@pytest.mark.parametrize("case", [c for _, c in VARIANTS], ids=[n for n, _ in VARIANTS])
def test_fixes_of_the_rule_cases_in_every_form(case: Case) -> None:
    _check(case)


@pytest.mark.parametrize("case", [c for _, c in SEEDS + VARIANTS], ids=[n for n, _ in SEEDS + VARIANTS])
def test_edits_never_break_the_form(case: Case) -> None:
    raw = Case(case.files, case.main, verify=False)
    _, failures = all_failures(raw, form_only=True)
    assert not failures, f"{len(failures)} fix(es) break the file:\n\n" + "\n\n".join(failures)


def test_the_corpus_has_fixes_to_check() -> None:
    """The generators cover every kind of fix the rules and records offer."""
    titles = set()
    for _, case in SEEDS + VARIANTS:
        for d in case.lint().diagnostics:
            titles.update((d.code, f.title.split(" ", 1)[0]) for f in d.fixes)
    for expected in [("SL201", "Remove"), ("SL201", "Switch"), ("SL202", "Remove"), ("SL002", "Use"),
                     ("SL106", "Remove"), ("SL104", "Remove"), ("SL101", "Replace"), ("SL103", "Remove")]:
        assert expected in titles, f"no {expected[1]} fix for {expected[0]} in the generated cases"
