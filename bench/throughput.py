"""Measurement 4: ``servelint check`` over a generated 1,000-file repository,
next to yamllint (its YAML files) and shellcheck (its shell files).

Each tool gets the same files in the same run, and the runs are interleaved
(servelint, yamllint, shellcheck, servelint, ...) so neighbours' load spreads
over all of them.  servelint is timed on the whole repository and on exactly
the files each other tool sees, which is the like-for-like ratio, each time
twice: ``-j 1`` (one process) and ``-j N`` (N = the CPUs available to the
bench, servelint's default), both passed explicitly.
"""

from __future__ import annotations

import os
import tempfile

import gen
from common import run_timed, say, shellcheck_bin, summary, yamllint_bin
from coldstart import installs


def measure(quick: bool) -> dict:
    load_start = [round(x, 2) for x in os.getloadavg()]
    n_files = 1000
    root = tempfile.mkdtemp(prefix="servelint-bench-repo-")
    by_form = gen.repository(root, n_files, seed=0)
    yaml_files = by_form["config"] + by_form["k8s"] + by_form["compose"]
    shell_files = by_form["shell"]
    lines = 0
    for files in by_form.values():
        for f in files:
            with open(f) as fh:
                lines += fh.read().count("\n")
    inst = installs()
    ins = inst.get("installed") or inst["as-is"]
    reps = 1 if quick else 3

    try:
        n_cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n_cpus = os.cpu_count() or 1
    job_counts = [1, n_cpus] if n_cpus > 1 else [1]

    def sl(paths: list[str], jobs: int) -> list[str]:
        return [c for c in ins.check_cmd("X", jobs=jobs) if c != "X"] + paths

    runs: dict[str, list[str]] = {}
    counts: dict[str, int] = {}
    for what, paths in (("whole repository", [root]), ("the YAML files", yaml_files),
                        ("the shell files", shell_files)):
        for j in job_counts:
            runs[f"servelint -j {j}: {what}"] = sl(paths, j)
            counts[f"servelint -j {j}: {what}"] = n_files if paths == [root] else len(paths)
    skipped = {}
    yl = yamllint_bin()
    if yl:
        runs["yamllint: the YAML files"] = [yl, "-f", "parsable", *yaml_files]
    else:
        skipped["yamllint"] = "could not be installed from PyPI into bench/.tools"
    sc = shellcheck_bin()
    if sc:
        runs["shellcheck: the shell files"] = [sc, "-f", "gcc", *shell_files]
    else:
        skipped["shellcheck"] = "not on PATH (Debian: apt-get install shellcheck)"
    for name, cmd in runs.items():  # warm-up: page cache, lazy imports' byte code
        run_timed(cmd, env=ins.env if name.startswith("servelint") else None, timeout=1800)
    walls: dict[str, list[float]] = {k: [] for k in runs}
    cpus: dict[str, list[float]] = {k: [] for k in runs}
    for r in range(reps):
        for name, cmd in runs.items():
            say(f"[throughput] {name} ({r + 1}/{reps})")
            t = run_timed(cmd, env=ins.env if name.startswith("servelint") else None, timeout=1800)
            walls[name].append(t.wall)
            cpus[name].append(t.cpu)
    counts.update({"yamllint: the YAML files": len(yaml_files), "shellcheck: the shell files": len(shell_files)})
    rows = {}
    for name in runs:
        w, c = summary(walls[name]), summary(cpus[name])
        rows[name] = {"files": counts[name], "wall": w, "cpu": c,
                      "files_per_s": round(counts[name] / (w["median_ms"] / 1e3), 1)}
    ratios = {}

    def ratio(a: str, b: str, label: str) -> None:
        if a in rows and b in rows:
            ratios[label] = {"wall": round(rows[b]["wall"]["median_ms"] / rows[a]["wall"]["median_ms"], 2),
                             "cpu": round(rows[b]["cpu"]["median_ms"] / rows[a]["cpu"]["median_ms"], 2)}

    for j in job_counts:
        sj = f"servelint -j {j}"
        ratio(f"{sj}: the YAML files", "yamllint: the YAML files",
              f"yamllint time / {sj} time (same YAML files)")
        ratio(f"{sj}: whole repository", "yamllint: the YAML files",
              f"yamllint (YAML only) / {sj} (all 1,000 files)")
        ratio(f"{sj}: the shell files", "shellcheck: the shell files",
              f"shellcheck time / {sj} time (same shell files)")
    for what in ("whole repository", "the YAML files", "the shell files"):
        if len(job_counts) > 1:
            ratio(f"servelint -j {n_cpus}: {what}", f"servelint -j 1: {what}", f"-j 1 / -j {n_cpus}, {what}")
    return {"repository": {"files": n_files, "lines": lines, "by_form": {k: len(v) for k, v in by_form.items()}},
            "servelint_install": ins.name, "cpus_available": n_cpus, "runs": rows, "ratios": ratios,
            "skipped": skipped, "loadavg_start": load_start, "loadavg_end": [round(x, 2) for x in os.getloadavg()]}
