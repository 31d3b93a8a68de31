"""Measurement 5: cold start, under the three ways servelint's code can be on disk.

* ``as-is``: the editable install of this checkout, with the environment's
  ``PYTHONDONTWRITEBYTECODE=1``: no byte code is ever written for
  ``server/servelint``, so every start compiles the project's modules again.
  This is what a developer in this environment sees.
* ``editable+pyc``: the same install, byte code allowed (kept under
  bench/.tools/pycache via ``PYTHONPYCACHEPREFIX``, so the tree stays clean),
  after one warm-up run.
* ``installed``: ``pip install .`` (not editable) of a copy of the tree
  into bench/.tools/installed-venv; pip compiles byte code at install time.
  This is what users see (``pip install servelint``, the editor extension).
"""

from __future__ import annotations

import asyncio
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

import gen
from common import ROOT, TOOLS, run_timed, say, summary


@dataclass
class Install:
    name: str
    python: str
    env: dict

    @property
    def servelint(self) -> str:
        exe = os.path.join(os.path.dirname(self.python), "servelint")
        return exe if os.path.exists(exe) else ""

    def check_cmd(self, path: str, jobs: int | None = None) -> list[str]:
        """``servelint check`` as the bench runs it; ``jobs`` adds ``-j N``
        (without it: the default, the CPUs available, which one file never
        uses: a single file is always checked in one process)."""
        head = [self.servelint] if self.servelint else [self.python, "-m", "servelint"]
        jobs_args = ["-j", str(jobs)] if jobs is not None else []
        return head + ["check", *jobs_args, "--format", "json", "--fail-on", "never", path]


def _source_digest() -> str:
    h = hashlib.sha1()
    files = [os.path.join(ROOT, "pyproject.toml")]
    files += sorted(glob.glob(os.path.join(ROOT, "server", "servelint", "**", "*"), recursive=True))
    for f in files:
        if os.path.isfile(f) and "__pycache__" not in f:
            h.update(f.encode())
            with open(f, "rb") as fh:
                h.update(fh.read())
    return h.hexdigest()


def _installed_venv() -> str | None:
    """bench/.tools/installed-venv holding a non-editable install of the
    current tree (re-installed when the sources changed)."""
    venv = os.path.join(TOOLS, "installed-venv")
    py = os.path.join(venv, "bin", "python")
    stamp = os.path.join(venv, ".servelint-source")
    digest = _source_digest()
    try:
        if os.path.exists(stamp) and open(stamp).read() == digest:
            return py
        if not os.path.exists(py):
            say(f"creating {venv} (a non-editable install, byte code compiled) ...")
            subprocess.run([sys.executable, "-m", "venv", venv], check=True, capture_output=True)
        # Build from a copy: building in place would leave build/ and
        # *.egg-info in a tree other people are editing.
        with tempfile.TemporaryDirectory(prefix="servelint-src-") as src:
            shutil.copy(os.path.join(ROOT, "pyproject.toml"), src)
            shutil.copy(os.path.join(ROOT, "README.md"), src)
            shutil.copytree(os.path.join(ROOT, "server"), os.path.join(src, "server"),
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
            say("installing the current tree into it ...")
            subprocess.run([py, "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", src],
                           check=True, capture_output=True)
            # Dependencies only when missing: a reinstall after a source
            # change should not wait on the index.
            subprocess.run([py, "-m", "pip", "install", "-q", src], check=True, capture_output=True)
        with open(stamp, "w") as fh:
            fh.write(digest)
        return py
    except (OSError, subprocess.CalledProcessError) as exc:
        err = getattr(exc, "stderr", b"") or b""
        say(f"could not build the installed venv: {exc} {err[-400:]!r}")
        return None


def installs() -> dict[str, Install]:
    base = dict(os.environ)
    asis = {**base, "PYTHONDONTWRITEBYTECODE": "1"}
    asis.pop("PYTHONPYCACHEPREFIX", None)
    pyc = {k: v for k, v in base.items() if k != "PYTHONDONTWRITEBYTECODE"}
    pyc["PYTHONPYCACHEPREFIX"] = os.path.join(TOOLS, "pycache")
    out = {"as-is": Install("as-is", sys.executable, asis), "editable+pyc": Install("editable+pyc", sys.executable, pyc)}
    py = _installed_venv()
    if py:
        # No PYTHONPATH: it may point at a source tree (to bench a clean
        # export of a commit with the editable modes), which would shadow the
        # installed package.
        installed = {k: v for k, v in asis.items() if k != "PYTHONPATH"}
        out["installed"] = Install("installed", py, installed)
    return out


def tree_has_bytecode() -> bool:
    """Someone ran servelint without PYTHONDONTWRITEBYTECODE: then "as-is"
    does not recompile, and the numbers say so."""
    return bool(glob.glob(os.path.join(ROOT, "server", "servelint", "**", "__pycache__"), recursive=True))


def _one_file(work: str) -> str:
    path = os.path.join(work, "one-file.sh")
    with open(path, "w") as fh:
        fh.write(gen.shell_script(60, seed=3).text)
    return path


async def _server_first_diagnostics(ins: Install, work: str, text: str) -> dict:
    from lspclient import Driver

    d = Driver(work, python=ins.python, env=ins.env)
    try:
        await d.start()
        t_init = time.perf_counter()
        uri = d.uri("one-file.sh")
        d.open(uri, text, "shellscript")
        t_pub = await d.published_version(uri, 1, timeout=120)
        # The server's own CPU until then: what a quiet machine would take,
        # roughly, when neighbours stretch the wall time.
        from lspclient import cpu_seconds

        return {"initialize": t_init - d.spawned_at, "first_diagnostics": t_pub - d.spawned_at,
                "server_cpu": cpu_seconds(d.pid)}
    finally:
        await d.stop()


def measure(quick: bool, lsp_ok: bool) -> dict:
    work = tempfile.mkdtemp(prefix="servelint-bench-cold-")
    path = _one_file(work)
    with open(path) as fh:
        text = fh.read()
    inst = installs()
    reps = 3 if quick else 10
    server_reps = 2 if quick else 5
    out: dict = {"file_lines": text.count("\n"), "tree_has_bytecode": tree_has_bytecode(), "modes": {}}
    for ins in inst.values():
        run_timed(ins.check_cmd(path), env=ins.env)  # warm-up: page cache; byte code for editable+pyc
    cells: dict = {name: {"cli": [], "cli_cpu": [], "python": [], "init": [], "server": [], "server_cpu": []}
                   for name in inst}
    # Interleaved: mode after mode within each repetition.
    for r in range(reps):
        for name, ins in inst.items():
            t = run_timed(ins.check_cmd(path), env=ins.env)
            if t.rc not in (0, 1):
                raise RuntimeError(f"servelint check failed ({name}): {t.stderr[-800:]}")
            cells[name]["cli"].append(t.wall)
            cells[name]["cli_cpu"].append(t.cpu)
            cells[name]["python"].append(run_timed([ins.python, "-c", "pass"], env=ins.env).wall)
    if lsp_ok:
        for r in range(server_reps):
            for name, ins in inst.items():
                res = asyncio.run(_server_first_diagnostics(ins, work, text))
                cells[name]["init"].append(res["initialize"])
                cells[name]["server"].append(res["first_diagnostics"])
                if res["server_cpu"] is not None:
                    cells[name]["server_cpu"].append(res["server_cpu"])
    for name, c in cells.items():
        out["modes"][name] = {
            "python": inst[name].python,
            "check_one_file": summary(c["cli"]),
            "check_one_file_cpu": summary(c["cli_cpu"]),
            "bare_python_start": summary(c["python"]),
            "server_initialize": summary(c["init"]),
            "server_start_to_first_diagnostics": summary(c["server"]),
            "server_cpu_until_first_diagnostics": summary(c["server_cpu"]),
        }
    return out


# -- the profile of a cold start ------------------------------------------------

def importtime(ins: Install, path: str, top: int = 15) -> dict:
    """``-X importtime`` of one ``servelint check``: the total, and the
    slowest imports (cumulative), by module."""
    t = run_timed([ins.python, "-X", "importtime", "-m", "servelint", "check", "--format", "json", "--fail-on",
                   "never", path], env=ins.env)
    rows = []
    for line in t.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
        if m:
            rows.append((int(m.group(1)), int(m.group(2)), len(m.group(3)) // 2, m.group(4)))
    total_self = sum(r[0] for r in rows)
    by_pkg: dict[str, int] = {}
    for self_us, _, _, mod in rows:
        by_pkg[mod.split(".")[0]] = by_pkg.get(mod.split(".")[0], 0) + self_us
    cumulative = sorted(rows, key=lambda r: -r[1])[:top]
    return {
        "wall_ms": round(t.wall * 1e3, 1),
        "imports_self_total_ms": round(total_self / 1e3, 1),
        "self_ms_by_top_package": {k: round(v / 1e3, 1) for k, v in sorted(by_pkg.items(), key=lambda kv: -kv[1])[:top]},
        "slowest_cumulative": [{"module": m, "cumulative_ms": round(c / 1e3, 1), "self_ms": round(s / 1e3, 1),
                                "depth": d} for s, c, d, m in cumulative],
    }
