"""Shared helpers: statistics, timing of child processes, tool discovery.

The machine this runs on is usually shared, so every helper reports medians
of repeated runs, and comparisons are taken in the same run, interleaved, so
that a burst of load from a neighbour hits both sides of a ratio.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
OUT = os.path.join(BENCH, "out")
TOOLS = os.path.join(BENCH, ".tools")

# Pinned so that a rerun next month compares like with like.
YAMLLINT_SPEC = "yamllint==1.38.0"
PROFILER_SPECS = ["pyinstrument==5.1.3", "py-spy==0.4.3"]


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100): an observed value, never an
    interpolation, so p99 of 1,000 samples is the 10th slowest."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def summary(values: list[float]) -> dict:
    """Median, p50/p99 and spread of a list of seconds, in milliseconds."""
    if not values:
        return {"n": 0}
    ms = [v * 1e3 for v in values]
    return {
        "n": len(ms),
        "median_ms": round(statistics.median(ms), 3),
        "p50_ms": round(percentile(ms, 50), 3),
        "p99_ms": round(percentile(ms, 99), 3),
        "min_ms": round(min(ms), 3),
        "max_ms": round(max(ms), 3),
    }


def fmt_ms(v: float) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if v >= 10_000:
        return f"{v / 1e3:.1f} s"
    if v >= 100:
        return f"{v:.0f} ms"
    if v >= 10:
        return f"{v:.1f} ms"
    return f"{v:.2f} ms"


@dataclass
class Timed:
    wall: float
    rc: int
    stdout: str
    stderr: str
    cpu: float  # user + sys of the child, which load from neighbours inflates far less than wall


def run_timed(cmd: list[str], *, env: dict | None = None, cwd: str | None = None, timeout: float = 600,
              stdin: str | None = None) -> Timed:
    """Wall and CPU time of one child process."""
    before = os.times()
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - t0
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return Timed(wall, proc.returncode, proc.stdout, proc.stderr, cpu)


def machine() -> dict:
    """What the numbers were measured on, including how busy it was."""
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = None
    try:
        with open("/proc/meminfo") as fh:
            mem = round(int(fh.readline().split()[1]) / 1024 / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    os_name = platform.platform()
    try:
        with open("/etc/os-release") as fh:
            for line in fh:
                if line.startswith("PRETTY_NAME="):
                    os_name = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gib": mem,
        "os": os_name,
        "python": platform.python_version(),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
        "git": _git_head(),
        "PYTHONDONTWRITEBYTECODE": os.environ.get("PYTHONDONTWRITEBYTECODE"),
    }


def _git_head() -> str | None:
    try:
        head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "server"], capture_output=True,
                               text=True, timeout=10).stdout.strip()
        return head + ("+dirty(server/)" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return None


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# -- tools under bench/.tools (git-ignored) ---------------------------------------

def profiler_path() -> str | None:
    """A directory to put on PYTHONPATH for pyinstrument (and py-spy's binary
    in its bin/), installed on first use; None when PyPI is unreachable."""
    site = os.path.join(TOOLS, "site")
    if not os.path.isdir(os.path.join(site, "pyinstrument")):
        say(f"installing {' '.join(PROFILER_SPECS)} into {site} ...")
        r = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--target", site, *PROFILER_SPECS],
                           capture_output=True, text=True)
        if r.returncode != 0:
            say(f"could not install the profilers: {r.stderr.strip()[-500:]}")
            return None
    return site


def yamllint_bin() -> str | None:
    venv = os.path.join(TOOLS, "yamllint-venv")
    exe = os.path.join(venv, "bin", "yamllint")
    if not os.path.exists(exe):
        say(f"installing {YAMLLINT_SPEC} into {venv} ...")
        try:
            subprocess.run([sys.executable, "-m", "venv", venv], check=True, capture_output=True)
            subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", YAMLLINT_SPEC], check=True,
                           capture_output=True)
        except subprocess.CalledProcessError as exc:
            say(f"could not install yamllint: {exc.stderr[-500:] if exc.stderr else exc}")
            return None
    return exe


def shellcheck_bin() -> str | None:
    return shutil.which("shellcheck")


def write_json(name: str, data) -> str:
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, name)
    with open(path, "w") as fh:
        json.dump(data, fh, indent=1, default=str)
    return path
