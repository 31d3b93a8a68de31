"""servelint agrees with every minor release's own entry points on the
flag-level cases of ``releases/`` (the every-minor suite).

Each case (``releases/cases/*.json``: what follows ``vllm serve`` or
``python -m vllm.entrypoints.openai.api_server``) is written as the
one-line script a user would write and linted for each release that has a
verdict file (``releases/verdicts/<release>.json``, made by ``run_oracle.py
releases`` from the release's own entry point run up to the start of the
server: its parser, ``--config`` handling and the checks ``vllm serve``
makes before it starts).  As in ``test_conformance.py``: servelint reports
an error exactly when the release rejects the command line, and on the flag
the release's parser names.  Known disagreements are in
``releases/DISAGREEMENTS.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from conformance_harness import disagreement, lint, load_cases, load_known, load_verdicts, prepare_workdir  # noqa: E402

SUITE = HERE / "releases"
CASES = load_cases(SUITE)
VERDICTS = load_verdicts(SUITE)
KNOWN = load_known(SUITE)
THEMES = sorted({c.theme for c in CASES.values()})
INDEX = {cid: i for i, cid in enumerate(CASES)}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return prepare_workdir(tmp_path_factory.mktemp("release-conformance"))


def test_every_minor_release_has_verdicts():
    from servelint import knowledge
    from servelint.knowledge.versions import version_key

    minors = {version_key(v)[:2] for v in knowledge.RELEASES}
    judged = {version_key(v)[:2] for v in VERDICTS}
    missing = sorted(".".join(map(str, m)) for m in minors - judged)
    assert not missing, f"no verdicts for the minor releases {missing}: run tests/conformance/run_oracle.py releases"
    absent = [(r, cid) for r, vs in VERDICTS.items() for cid in CASES if cid not in vs]
    assert not absent, f"{len(absent)} case x release pairs have no verdict, e.g. {absent[:5]}"


def test_known_disagreements_name_real_cases():
    unknown = [f"releases/DISAGREEMENTS.md:{k.line}: {k.case}" for k in KNOWN if k.case not in CASES]
    never = [f"releases/DISAGREEMENTS.md:{k.line}: {k.case} ({k.releases})" for k in KNOWN
             if not any(k.covers(r) for r in VERDICTS)]
    assert not unknown and not never, "\n".join(unknown + never)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("release", list(VERDICTS))
def test_release_conformance(release, theme, workdir):
    unexplained, stale = [], []
    for cid, case in CASES.items():
        if case.theme != theme:
            continue
        why = disagreement(case, release, VERDICTS[release].get(cid), lint(case, release, workdir, INDEX[cid]))
        known = [k for k in KNOWN if k.case == cid and k.covers(release)]
        if why and not known:
            unexplained.append(f"{cid}\n    {case.script().strip()}\n    {why}")
        elif known and not why:
            stale.append(f"{cid}: servelint now agrees with vLLM {release}; "
                         f"remove or narrow releases/DISAGREEMENTS.md:{known[0].line}")
    assert not unexplained and not stale, "\n".join(
        ([f"{len(unexplained)} disagreement(s) with vLLM {release}:"] + unexplained if unexplained else []) + stale
    )
