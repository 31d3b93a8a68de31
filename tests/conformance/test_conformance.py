"""servelint agrees with vLLM itself on every conformance case and release.

Each case (``cases/*.json``) is written as a one-line ``vllm serve ...``
script next to copies of the model directories and ``--config`` fixtures, and
linted for each release that has vLLM's verdicts (``verdicts/<release>.json``,
made by ``run_oracle.py`` from vLLM's own parser and config validators).

For each case x release:

* servelint reports an error (any diagnostic of severity error) exactly when
  vLLM rejects the command line;
* when vLLM's parser rejects a flag (unrecognized arguments, ambiguous
  option, invalid choice or type, expected one argument, ignored explicit
  argument), one of servelint's errors is on that same flag or word.

Known disagreements are listed in ``DISAGREEMENTS.md`` with their reason;
those pairs must still disagree, so a fix that makes one agree also removes
its entry.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conformance_harness import disagreement, lint, load_cases, load_known, load_verdicts, prepare_workdir  # noqa: E402

CASES = load_cases()
VERDICTS = load_verdicts()
KNOWN = load_known()
THEMES = sorted({c.theme for c in CASES.values()})
INDEX = {cid: i for i, cid in enumerate(CASES)}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return prepare_workdir(tmp_path_factory.mktemp("conformance"))


def test_every_case_has_verdicts():
    missing = [(r, cid) for r, vs in VERDICTS.items() for cid in CASES if cid not in vs]
    assert VERDICTS, "no verdicts/*.json: run tests/conformance/run_oracle.py"
    assert not missing, f"{len(missing)} case x release pairs have no vLLM verdict, e.g. {missing[:5]}; run run_oracle.py"


def test_known_disagreements_name_real_cases():
    unknown = [f"DISAGREEMENTS.md:{k.line}: {k.case}" for k in KNOWN if k.case not in CASES]
    never = [f"DISAGREEMENTS.md:{k.line}: {k.case} ({k.releases})" for k in KNOWN
             if not any(k.covers(r) for r in VERDICTS)]
    assert not unknown and not never, "\n".join(unknown + never)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("release", list(VERDICTS))
def test_conformance(release, theme, workdir):
    unexplained, stale = [], []
    for cid, case in CASES.items():
        if case.theme != theme:
            continue
        why = disagreement(case, release, VERDICTS[release].get(cid), lint(case, release, workdir, INDEX[cid]))
        known = [k for k in KNOWN if k.case == cid and k.covers(release)]
        if why and not known:
            unexplained.append(f"{cid}\n    vllm serve {' '.join(case.argv)}\n    {why}")
        elif known and not why:
            stale.append(f"{cid}: servelint now agrees with vLLM {release}; "
                         f"remove or narrow DISAGREEMENTS.md:{known[0].line}")
    assert not unexplained and not stale, "\n".join(
        ([f"{len(unexplained)} disagreement(s) with vLLM {release}:"] + unexplained if unexplained else []) + stale
    )
