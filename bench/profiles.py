"""Profiles of the paths that miss their goals: the keystroke (engine
in-process with pyinstrument, the server process with py-spy) and the cold
start (``-X importtime`` and pyinstrument).

Raw outputs go to bench/out/profile-*; the harness keeps only the top
functions by self time and by inclusive time, which is what RESULTS.md quotes.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import tempfile
import time

import gen
from common import OUT, profiler_path, say


def _label(function: str, path: str | None) -> str:
    path = path or ""
    m = re.search(r"(servelint/.*|site-packages/(.*))$", path)
    if m:
        path = m.group(2) or m.group(1)
    else:
        path = os.path.basename(path)
    return f"{function} ({path})"


def _top(self_t: dict[str, float], incl_t: dict[str, float], total: float, n: int) -> dict:
    def rows(d):
        return [{"function": k, "share": round(v / total, 3)} for k, v in sorted(d.items(), key=lambda kv: -kv[1])[:n]]

    return {"by_self_time": rows(self_t), "by_inclusive_time": rows(incl_t)}


def _pyinstrument_tops(session, n: int = 15) -> dict:
    root = session.root_frame()
    self_t: dict[str, float] = {}
    incl_t: dict[str, float] = {}

    def walk(fr, active: frozenset):
        if fr.is_synthetic:
            return
        key = _label(fr.function, fr.file_path_short)
        own = fr.time - sum(c.time for c in fr.children if not c.is_synthetic)
        self_t[key] = self_t.get(key, 0.0) + own
        if key not in active:  # recursion counts once
            incl_t[key] = incl_t.get(key, 0.0) + fr.time
        for c in fr.children:
            walk(c, active | {key})

    walk(root, frozenset())
    total = root.time or 1.0
    return {"seconds": round(total, 2), **_top(self_t, incl_t, total, n)}


def engine_keystroke(doc: gen.Generated, sequence: str, n: int, name: str) -> dict:
    site = profiler_path()
    if site is None:
        return {"skipped": "pyinstrument could not be installed"}
    sys.path.insert(0, site)
    from pyinstrument import Profiler
    from servelint.engine import Engine
    from servelint.settings import Settings

    from edits import edits_for

    engine = Engine(Settings(max_launches=0))  # as bench/edits.py measures
    path = os.path.join(tempfile.gettempdir(), "servelint-bench", "profiled" + (".sh" if doc.kind == "shell" else ".yaml"))
    text = doc.text
    engine.lint(path, text)
    plan = edits_for(doc, sequence, n)
    prof = Profiler(interval=0.0005)
    prof.start()
    for e in plan:
        text = gen.apply(text, e)
        engine.lint(path, text)
    prof.stop()
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, f"profile-{name}.txt"), "w") as fh:
        fh.write(prof.output_text(unicode=False, color=False))
    return {"edits": n, **_pyinstrument_tops(prof.last_session)}


def engine_verdict(reps: int) -> dict:
    """pyinstrument over the warm verdict path: a fresh two-line document per lint."""
    site = profiler_path()
    if site is None:
        return {"skipped": "pyinstrument could not be installed"}
    sys.path.insert(0, site)
    from pyinstrument import Profiler
    from servelint.engine import Engine

    engine = Engine()
    path = os.path.join(tempfile.gettempdir(), "servelint-bench", "verdict.sh")
    texts = [c.shell_text() for c in gen.VERDICT_CASES]
    for t in texts:
        engine.lint(path, t)
        engine.forget(path)
    prof = Profiler(interval=0.0002)
    prof.start()
    for _ in range(reps):
        for t in texts:
            engine.lint(path, t)
            engine.forget(path)
    prof.stop()
    with open(os.path.join(OUT, "profile-engine-verdict.txt"), "w") as fh:
        fh.write(prof.output_text(unicode=False, color=False))
    return {"lints": reps * len(texts), **_pyinstrument_tops(prof.last_session)}


def check_repository(n_files: int) -> dict:
    """pyinstrument over ``servelint check`` of the generated repository, in-process."""
    site = profiler_path()
    if site is None:
        return {"skipped": "pyinstrument could not be installed"}
    sys.path.insert(0, site)
    import contextlib
    import io

    from pyinstrument import Profiler
    from servelint.cli import main as cli_main

    root = tempfile.mkdtemp(prefix="servelint-bench-profrepo-")
    gen.repository(root, n_files, seed=0)
    prof = Profiler(interval=0.0005)
    sink = io.StringIO()
    prof.start()
    with contextlib.redirect_stdout(sink):
        cli_main(["check", "-j", "1", "--format", "json", "--fail-on", "never", root])  # in-process: no workers
    prof.stop()
    with open(os.path.join(OUT, "profile-check-repository.txt"), "w") as fh:
        fh.write(prof.output_text(unicode=False, color=False))
    return {"files": n_files, **_pyinstrument_tops(prof.last_session)}


async def _server_session(doc: gen.Generated, n: int, out_path: str) -> None:
    from lspclient import Driver

    root = tempfile.mkdtemp(prefix="servelint-bench-prof-")
    d = Driver(root)
    await d.start()
    try:
        uri = d.uri("launch.sh" if doc.kind == "shell" else "manifests.yaml")
        text = doc.text
        d.open(uri, text, "shellscript" if doc.kind == "shell" else "yaml")
        await d.published_version(uri, 1, timeout=300)
        site = profiler_path()
        spy = os.path.join(site, "bin", "py-spy") if site else None
        if not spy or not os.path.exists(spy):
            raise RuntimeError("py-spy is not available")
        rec = subprocess.Popen([spy, "record", "--pid", str(d.pid), "--rate", os.environ.get("SPY_RATE", "250"), "--format", "raw",
                                "--threads", "--output", out_path, "--nonblocking"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        await asyncio.sleep(1.0)  # py-spy attaches
        from lspclient import position

        for at, dele, ins in gen.toggle_edits(doc.text, doc.marker, n):
            start = position(text, at)
            end = position(text, at + dele) if dele else start
            text = gen.apply(text, (at, dele, ins))
            v = d.change(uri, start, end, ins)
            await d.published_version(uri, v)
        rec.send_signal(2)  # SIGINT: py-spy writes what it has
        try:
            rec.wait(timeout=60)
        except subprocess.TimeoutExpired:
            rec.kill()
    finally:
        await d.stop()


def server_keystroke(doc: gen.Generated, n: int, name: str) -> dict:
    """py-spy on the server process while it answers ``n`` pushed keystrokes."""
    out_path = os.path.join(OUT, f"profile-{name}.collapsed")
    os.makedirs(OUT, exist_ok=True)
    try:
        asyncio.run(_server_session(doc, n, out_path))
    except Exception as exc:
        return {"skipped": f"{type(exc).__name__}: {exc}"}
    if not os.path.exists(out_path):
        return {"skipped": "py-spy wrote nothing (ptrace not permitted?)"}
    self_t: dict[str, float] = {}
    incl_t: dict[str, float] = {}
    threads: dict[str, float] = {}
    total = 0
    with open(out_path) as fh:
        for line in fh:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not count.isdigit():
                continue
            c = int(count)
            frames = stack.split(";")
            thread, frames = frames[0], frames[1:]
            threads[thread] = threads.get(thread, 0) + c
            total += c
            labels = []
            for fr in frames:
                m = re.match(r"(.*) \((.*?)(?::\d+)?\)$", fr)
                labels.append(_label(m.group(1), m.group(2)) if m else fr)
            if labels:
                self_t[labels[-1]] = self_t.get(labels[-1], 0) + c
            for lab in set(labels):
                incl_t[lab] = incl_t.get(lab, 0) + c
    return {"edits": n, "samples": total,
            "threads": {k: round(v / total, 3) for k, v in sorted(threads.items(), key=lambda kv: -kv[1])},
            **_top(self_t, incl_t, total or 1, 20)}


def cold_start() -> dict:
    from coldstart import _one_file, importtime, installs

    work = tempfile.mkdtemp(prefix="servelint-bench-profcold-")
    path = _one_file(work)
    out: dict = {}
    inst = installs()
    for name in ("as-is", "installed"):
        if name in inst:
            importtime(inst[name], path)  # warm the page cache
            out[f"importtime[{name}]"] = importtime(inst[name], path)
    site = profiler_path()
    if site:
        ins = inst["as-is"]
        env = {**ins.env, "PYTHONPATH": site}
        txt = os.path.join(OUT, "profile-coldstart-as-is.txt")
        r = subprocess.run([ins.python, "-m", "pyinstrument", "--interval", "0.0005", "-o", txt, "-r", "text",
                            "-m", "servelint", "check", "--format", "json", "--fail-on", "never", path],
                           env=env, capture_output=True, text=True)
        out["pyinstrument_as-is"] = txt if r.returncode in (0, 1) else f"failed: {r.stderr[-300:]}"
        # The server's own start: everything imported before it can answer.
        probe = ("import time; t=time.perf_counter(); from servelint.lsp.server import create_server; "
                 "create_server(); print(round((time.perf_counter()-t)*1e3, 1))")
        for name in ("as-is", "installed"):
            if name in inst:
                vals = []
                for _ in range(3):
                    r = subprocess.run([inst[name].python, "-c", probe], env=inst[name].env, capture_output=True, text=True)
                    if r.returncode == 0:
                        vals.append(float(r.stdout.strip()))
                out[f"import_lsp_server_ms[{name}]"] = sorted(vals)[len(vals) // 2] if vals else None
    return out


def measure(quick: bool) -> dict:
    n = 20 if quick else 100
    say("[profile] engine keystroke, 2,000-line script")
    res = {"engine-shell-2000": engine_keystroke(gen.shell_script(2000), "toggle", n, "engine-shell-2000")}
    say("[profile] engine keystroke, 5,000-line manifest")
    res["engine-k8s-5000"] = engine_keystroke(gen.k8s_multidoc(5000), "toggle", n, "engine-k8s-5000")
    say("[profile] server keystroke (py-spy), 2,000-line script")
    res["server-shell-2000"] = server_keystroke(gen.shell_script(2000), n, "server-shell-2000")
    say("[profile] server keystroke (py-spy), 5,000-line manifest")
    res["server-k8s-5000"] = server_keystroke(gen.k8s_multidoc(5000), n, "server-k8s-5000")
    say("[profile] engine, warm verdict path")
    res["engine-verdict"] = engine_verdict(20 if quick else 100)
    say("[profile] servelint check over the generated repository")
    res["check-repository"] = check_repository(200 if quick else 1000)
    say("[profile] cold start")
    res["cold-start"] = cold_start()
    return res
