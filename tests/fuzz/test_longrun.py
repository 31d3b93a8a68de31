"""The long-run driver (``longrun.py``, ``make fuzz``) in miniature: a few
hundred documents through every target with nothing found, and a planted
crash and a planted hang are caught, counted and saved."""

from __future__ import annotations

import time

import longrun
import pytest


def _run(tmp_path, *extra: str) -> tuple[int, str]:
    report = tmp_path / "LONGRUN.md"
    status = longrun.main(["--documents", "300", "--seed", "5", "--report", str(report),
                           "--crashers", str(tmp_path / "crashers"), *extra])
    return status, report.read_text()


# The engine's open wrong answers (tests/fuzz/test_regressions.py) may turn up
# here when the corpus changes; crashes and hangs may not, anywhere.
OPEN_WRONG = {"engine", "engine-incremental"}


def test_every_target_runs_clean(tmp_path):
    status, report = _run(tmp_path)
    rows = {cells[0]: cells[1:] for line in report.splitlines() if line.startswith("| ")
            for cells in [[c.strip() for c in line.strip("|").split("|")]]}
    for target in longrun.DEFAULT_WEIGHTS:
        documents, crashes, hangs, wrong = rows[target][:4]
        assert int(documents.replace(",", "")) > 0, target
        assert (crashes, hangs) == ("0", "0"), (target, report)
        assert wrong == "0" or target in OPEN_WRONG, (target, report)


def test_a_crash_and_a_hang_are_caught_and_saved(tmp_path, monkeypatch):
    def crashing(text, meta):
        {}["missing"]

    def hanging(text, meta):
        while True:
            time.sleep(0.01)

    monkeypatch.setattr(longrun.Targets, "make", lambda self, target: ("crash me" if target == "shell" else "hang me", {}))
    monkeypatch.setitem(longrun.CHECKS, "shell", crashing)
    monkeypatch.setitem(longrun.CHECKS, "dockerfile", hanging)
    status, report = _run(tmp_path, "--targets", "shell,dockerfile", "--weights", "shell=1,dockerfile=1",
                          "--documents", "4", "--hang-s", "0.2")
    assert status == 1
    assert "| shell | 2 | 2 | 0 | 0 |" in report and "| dockerfile | 2 | 0 | 2 | 0 |" in report
    crashers = tmp_path / "crashers"
    saved = sorted(p.name.rsplit("-", 1)[0] for p in crashers.glob("*.txt"))
    assert saved == ["dockerfile-hang", "shell-crash"]  # the same input each time: one file each
    assert next(crashers.glob("shell-crash-*.txt")).read_text() == "crash me"
    assert "KeyError" in next(crashers.glob("shell-crash-*.err")).read_text()
    assert "shell: KeyError" in report
    # A saved input repeats its finding.
    with pytest.raises(KeyError):
        longrun.replay(next(crashers.glob("shell-crash-*.txt")))
