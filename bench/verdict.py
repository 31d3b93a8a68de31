"""Measurement 1: time to a verdict on one launch, servelint vs vLLM itself.

vLLM's own verdict comes from the vllm-oracle tool (its parser and config
validation, unmodified, on a CPU-only machine).  Two regimes:

* cold: one fresh process per argv (``servelint check case.sh`` vs
  ``oracle.sh VERSION -- ARGV``), what a CI step or a pre-launch hook pays;
* warm: servelint's ``Engine.lint`` in-process vs one case inside the
  oracle's ``--json`` batch (vLLM already imported), what an editor pays.

The oracle prints one line per case and flushes it, so the batch per-case
time is the gap between consecutive lines, read as they arrive.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import tempfile
import time

import gen
from common import OUT, run_timed, say, summary
from coldstart import Install, installs

ORACLE = os.environ.get("SERVELINT_BENCH_ORACLE", "/work/shared/tools/vllm-oracle/oracle.sh")
ORACLE_HOME = os.environ.get("VLLM_ORACLE_HOME", "/work/oracle-home")


def oracle_missing(versions: set[str]) -> str | None:
    """Why the oracle cannot be used here, or None."""
    if not os.path.exists(ORACLE):
        return f"no oracle script at {ORACLE} (set SERVELINT_BENCH_ORACLE)"
    if not os.path.isdir(ORACLE_HOME):
        return f"no oracle home at {ORACLE_HOME} (set VLLM_ORACLE_HOME; see the oracle's README, setup.sh)"
    try:
        have = set(subprocess.run([ORACLE, "--versions"], env=_oracle_env(), capture_output=True, text=True,
                                  timeout=60).stdout.split())
    except (OSError, subprocess.SubprocessError) as exc:
        return f"the oracle does not run: {exc}"
    lacking = versions - have
    if lacking:
        return f"the oracle home lacks release(s) {', '.join(sorted(lacking))} (run setup.sh {' '.join(sorted(lacking))})"
    return None


def _oracle_env() -> dict:
    return {**os.environ, "VLLM_ORACLE_HOME": ORACLE_HOME}


def _servelint_verdict(engine, case: gen.VerdictCase, path: str) -> list[str]:
    result = engine.lint(path, case.shell_text())
    engine.forget(path)
    return [f"{d.code} {d.message}" for d in result.diagnostics if d.severity.name in ("ERROR", "WARNING")]


def _oracle_batch(version: str, cases: list[gen.VerdictCase], reps: int, work: str) -> dict:
    """Per-case times inside one ``--json`` batch (the first, a warm-up,
    absorbs what is left of the start-up)."""
    batch: dict = {"warm-up": ["llama"]}
    for r in range(reps):
        for i, c in enumerate(cases):
            batch[f"{i}#{r}"] = c.argv
    path = os.path.join(work, f"oracle-batch-{version}.json")
    with open(path, "w") as fh:
        json.dump(batch, fh)
    t0 = time.perf_counter()
    proc = subprocess.Popen([ORACLE, version, "--json", path], env=_oracle_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    stamps: list[tuple[str, float, str]] = []
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("["):
            name, _, verdict = line[1:].partition("] ")
            stamps.append((name, time.perf_counter(), verdict.strip()))
    proc.wait(timeout=600)
    total = time.perf_counter() - t0
    per: dict[int, list[float]] = {}
    verdicts: dict[int, str] = {}
    prev = None
    for name, t, verdict in stamps:
        if prev is not None and name != "warm-up":
            i = int(name.split("#")[0])
            per.setdefault(i, []).append(t - prev)
            verdicts[i] = verdict
        prev = t
    return {"total_s": round(total, 2), "until_first_case_s": round(stamps[0][1] - t0, 2) if stamps else None,
            "per_case": per, "verdicts": verdicts}


def measure(quick: bool) -> dict:
    cases = gen.QUICK_VERDICT_CASES if quick else gen.VERDICT_CASES
    versions = {c.version for c in cases}
    why = oracle_missing(versions)
    if why:
        say(f"[verdict] SKIPPED the oracle side: {why}")
    work = tempfile.mkdtemp(prefix="servelint-bench-verdict-", dir=None)
    os.makedirs(OUT, exist_ok=True)
    from servelint.engine import Engine

    engine = Engine()
    rows = []
    # Warm servelint: the engine in-process, a fresh document each time.
    for i, case in enumerate(cases):
        path = os.path.join(work, f"case-{i}.sh")
        with open(path, "w") as fh:
            fh.write(case.shell_text())
        verdict = _servelint_verdict(engine, case, path)  # also warms caches
        times = []
        for _ in range(20 if quick else 100):
            t0 = time.perf_counter()
            _servelint_verdict(engine, case, path)
            times.append(time.perf_counter() - t0)
        rows.append({"case": case.name, "version": case.version, "oracle_argv": case.argv,
                     "servelint_argv": case.servelint_argv(), "servelint_verdict": verdict,
                     "servelint_warm": summary(times), "path": path})

    # Cold: fresh processes, servelint and the oracle interleaved per case so
    # that a burst of load from a neighbour hits both.
    inst = installs()
    sl_reps = 3 if quick else 5
    oracle_reps = 1 if quick else 3  # each cold oracle run is 15-60 s
    for row, case in zip(rows, cases):
        for mode in ("as-is", "installed"):
            ins: Install | None = inst.get(mode)
            if ins is None:
                continue
            walls, cpus = [], []
            run_timed(ins.check_cmd(row["path"]), env=ins.env)  # page cache, byte code (when kept)
            for _ in range(sl_reps):
                t = run_timed(ins.check_cmd(row["path"]), env=ins.env)
                walls.append(t.wall)
                cpus.append(t.cpu)
            row[f"servelint_cold[{mode}]"] = {"wall": summary(walls), "cpu": summary(cpus)}
        if not why:
            say(f"[verdict] oracle cold: {case.version} -- {' '.join(case.argv)}")
            walls, cpus, out = [], [], ""
            for _ in range(oracle_reps):
                t = run_timed([ORACLE, case.version, "--", *case.argv], env=_oracle_env(), timeout=900)
                walls.append(t.wall)
                cpus.append(t.cpu)
                out = (t.stdout.strip().splitlines() or [""])[-1]
            row["oracle_cold"] = {"wall": summary(walls), "cpu": summary(cpus)}
            row["oracle_verdict"] = out

    if not why:
        reps = 2 if quick else 5
        for version in sorted(versions):
            idx = [i for i, c in enumerate(cases) if c.version == version]
            say(f"[verdict] oracle --json batch on {version}: {len(idx)} cases x {reps}")
            b = _oracle_batch(version, [cases[i] for i in idx], reps, work)
            for local, i in enumerate(idx):
                times = b["per_case"].get(local, [])
                rows[i]["oracle_warm"] = summary(times)
                rows[i]["oracle_batch"] = {"version": version, "total_s": b["total_s"],
                                           "until_first_case_s": b["until_first_case_s"]}
                rows[i].setdefault("oracle_verdict", b["verdicts"].get(local))

    for row in rows:
        sw, ow = row["servelint_warm"].get("median_ms"), (row.get("oracle_warm") or {}).get("median_ms")
        if sw and ow:
            row["speedup_warm"] = round(ow / sw, 1)
        for clock in ("wall", "cpu"):
            oc = (row.get("oracle_cold") or {}).get(clock, {}).get("median_ms")
            for mode in ("as-is", "installed"):
                sc = (row.get(f"servelint_cold[{mode}]") or {}).get(clock, {}).get("median_ms")
                if oc and sc:
                    suffix = "" if clock == "wall" else ", cpu"
                    row[f"speedup_cold[{mode}{suffix}]"] = round(oc / sc, 1)
        row.pop("path", None)
    speed = {k: statistics.median([r[k] for r in rows if k in r]) for k in
             ("speedup_warm", "speedup_cold[as-is]", "speedup_cold[installed]", "speedup_cold[as-is, cpu]",
              "speedup_cold[installed, cpu]") if any(k in r for r in rows)}
    return {"oracle": None if why else {"script": ORACLE, "home": ORACLE_HOME}, "oracle_skipped": why,
            "cases": rows, "median_speedups": speed}
