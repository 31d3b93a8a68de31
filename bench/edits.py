"""Keystroke latency: the engine in-process and the language server over stdio.

Two edit sequences (see gen.py), each made of single-character edits in the
middle of the file:

* ``toggle``: a letter typed into the unknown flag ``--max-modl-len`` and
  deleted again.  Every keystroke changes a diagnostic, so a pushing server
  must publish for every version; this is the "didChange → matching
  publishDiagnostics" latency.
* ``typing``: a new flag typed at the end of that launch's line, then
  backspaced.  Most keystrokes leave the diagnostics unchanged; servelint
  then publishes nothing (by design), so this sequence is measured with a
  pulling client (Neovim's capabilities), which asks after every keystroke.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import gen
from common import say, summary
from lspclient import PULL_PROFILE, PUSH_PROFILE, Driver, cpu_seconds, position, rss_kib

# The first keystrokes pay one-off costs (first use of a code path, caches):
# an editor session does not repeat them, so they are left out of the stats.
WARMUP = 5


def _language(kind: str) -> str:
    return "shellscript" if kind == "shell" else "yaml"


def _file(kind: str) -> str:
    return "launch.sh" if kind == "shell" else "manifests.yaml"


def edits_for(doc: gen.Generated, sequence: str, n: int):
    if sequence == "toggle":
        return gen.toggle_edits(doc.text, doc.marker, n)
    return gen.typing_edits(doc.text, doc.marker, n, doc.kind)


def engine_edits(doc: gen.Generated, sequence: str, n: int, *, budget_s: float | None = None,
                 warmup: int = WARMUP) -> dict:
    """Engine.lint on each successive text, in this process."""
    from servelint.engine import Engine
    from servelint.settings import Settings

    # Every launch checked: the 100,000-line files hold 2,000-5,000 launches,
    # past the default limit, and what is measured is the incremental
    # engine at that size.
    engine = Engine(Settings(max_launches=0))
    path = os.path.join(tempfile.gettempdir(), "servelint-bench", _file(doc.kind))
    text = doc.text
    t0 = time.perf_counter()
    first = engine.lint(path, text)
    first_s = time.perf_counter() - t0
    walls, cpus, rules, launches = [], [], [], []
    started = time.perf_counter()
    for k, edit in enumerate(edits_for(doc, sequence, n + warmup)):
        text = gen.apply(text, edit)
        r0, l0 = engine.rule_evaluations, engine.launch_evaluations
        c0, w0 = time.thread_time(), time.perf_counter()
        engine.lint(path, text)
        w1, c1 = time.perf_counter(), time.thread_time()
        # As the server does after each lint (``Session._settle_heap``): what
        # outlives a lint leaves the cyclic collector's young generations.
        gc.freeze()
        if k < warmup:
            continue
        walls.append(w1 - w0)
        cpus.append(c1 - c0)
        rules.append(engine.rule_evaluations - r0)
        launches.append(engine.launch_evaluations - l0)
        if budget_s is not None and time.perf_counter() - started > budget_s and len(walls) >= 5:
            break
    gc.unfreeze()
    return {
        "lines": doc.lines, "launches": len(first.launches), "diagnostics": len(first.diagnostics),
        "first_lint_ms": round(first_s * 1e3, 1),
        "wall": summary(walls), "cpu": summary(cpus),
        "rule_evaluations_per_edit": {"mean": round(statistics.fmean(rules), 2), "max": max(rules)},
        "launch_evaluations_per_edit": {"mean": round(statistics.fmean(launches), 2), "max": max(launches)},
        "peak_rss_mb": round((rss_kib(os.getpid())[1] or 0) / 1024, 1),
    }


def _limit_memory(limit_mb: int | None):
    """A preexec_fn capping a child's address space: a size that blows up
    must fail alone, not take a shared machine's memory with it."""
    if not limit_mb:
        return None

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))

    return apply


async def _lsp_edits(doc: gen.Generated, sequence: str, n: int, profile: str, budget_s: float | None,
                     warmup: int = WARMUP, limit_mb: int | None = None) -> dict:
    root = tempfile.mkdtemp(prefix="servelint-bench-lsp-")
    d = Driver(root, profile=profile, preexec_fn=_limit_memory(limit_mb))
    await d.start()
    pull = profile == PULL_PROFILE
    try:
        uri = d.uri(_file(doc.kind))
        text = doc.text
        t0 = time.perf_counter()
        d.open(uri, text, _language(doc.kind))
        if pull:
            report = await d.pull(uri, timeout=300)
            shown = len(report.items)
        else:
            await d.published_version(uri, 1, timeout=300)
            shown = d.published[uri][-1][2]
        open_s = time.perf_counter() - t0
        lat, decoded, received, missed = [], [], [], 0
        cpu0 = None
        started = time.perf_counter()
        # The client's own cyclic collector (it holds every answer it
        # decoded) is this harness's, not the editor's: frozen, its pauses
        # are not counted as the server's latency.
        gc.collect()
        gc.freeze()
        for k, (at, dele, ins) in enumerate(edits_for(doc, sequence, n + warmup)):
            if k == warmup:
                cpu0 = cpu_seconds(d.pid)
            start = position(text, at)
            end = position(text, at + dele) if dele else start
            text = gen.apply(text, (at, dele, ins))
            t0 = time.perf_counter()
            version = d.change(uri, start, end, ins)
            try:
                if pull:
                    await d.pull(uri)
                    t1 = time.perf_counter()
                    td, tr = d.last_response_decoded, d.last_response_received
                else:
                    t1 = await d.published_version(uri, version)
                    td, tr = d.decoded.get((uri, version)), d.received.get((uri, version))
            except (TimeoutError, asyncio.TimeoutError):
                missed += 1
                continue
            if k >= warmup:
                lat.append(t1 - t0)
                if td is not None and td >= t0:
                    decoded.append(td - t0)
                if tr is not None and tr >= t0:
                    received.append(tr - t0)
            if budget_s is not None and time.perf_counter() - started > budget_s and len(lat) >= 5:
                break
        cpu1 = cpu_seconds(d.pid)
        peak = rss_kib(d.pid)[1]
        server_cpu = (cpu1 - cpu0) / max(1, len(lat)) if cpu0 is not None and cpu1 is not None else None
        return {
            "lines": doc.lines, "mode": "pull" if pull else "push", "client": profile, "diagnostics": shown,
            "open_to_first_diagnostics_ms": round(open_s * 1e3, 1),
            "latency": summary(lat), "latency_decoded": summary(decoded),
            "latency_received": summary(received), "missed": missed,
            "server_cpu_per_edit_ms": None if server_cpu is None else round(server_cpu * 1e3, 2),
            "server_peak_rss_mb": round(peak / 1024, 1) if peak else None,
        }
    finally:
        gc.unfreeze()
        await d.stop()


def lsp_edits(doc: gen.Generated, sequence: str, n: int, *, pull: bool = False, budget_s: float | None = None,
              warmup: int = WARMUP, limit_mb: int | None = None) -> dict:
    return asyncio.run(_lsp_edits(doc, sequence, n, PULL_PROFILE if pull else PUSH_PROFILE, budget_s, warmup, limit_mb))


def debounce_ms() -> float | None:
    try:
        from servelint.lsp.session import DEBOUNCE_S
    except Exception:
        return None
    return DEBOUNCE_S * 1e3


# -- the two measurements ------------------------------------------------------

def measure_latency(quick: bool, lsp_ok: bool, n_edits: int | None = None, only: list[str] | None = None) -> dict:
    """Measurement 2: a 2,000-line script and a 5,000-line multi-document
    manifest, mostly clean; the same script size and a Kubernetes List of
    300 pods with a finding in every launch.  ``only``: these files (by
    name) alone."""
    n = n_edits or (50 if quick else 1000)
    docs = {"shell-2000": gen.shell_script(2000), "k8s-5000": gen.k8s_multidoc(5000),
            # Every launch with a finding: the keystroke must cost what it
            # changed, not what the rest of the file holds (issue 22).
            "shell-2000-errors": gen.shell_errors(2000), "k8s-list-300-errors": gen.k8s_list(300)}
    if only:
        docs = {k: v for k, v in docs.items() if k in only}
    out: dict = {"edits": n, "warmup_edits_dropped": WARMUP, "debounce_ms": debounce_ms(), "files": {}}
    for name, doc in docs.items():
        assert doc.text.isascii()
        res: dict = {}
        for seq in ("toggle", "typing"):
            say(f"[latency] {name}: engine in-process, {seq}, {n} edits")
            res[f"engine/{seq}"] = engine_edits(doc, seq, n)
        if lsp_ok:
            say(f"[latency] {name}: LSP push (VS Code capabilities), toggle, {n} edits")
            res["lsp-push/toggle"] = lsp_edits(doc, "toggle", n)
            say(f"[latency] {name}: LSP pull (Neovim capabilities), typing, {n} edits")
            res["lsp-pull/typing"] = lsp_edits(doc, "typing", n, pull=True)
        out["files"][name] = res
    return out


# A scaling cell may be quadratic; these bound what it may take from a shared machine.
CELL_MEMORY_MB = 6144
CELL_TIMEOUT_S = 1200


def _cell(kind: str, size: int, path: str, n: int, budget: float) -> dict:
    """One scaling cell in a child process (capped memory, a time limit)."""
    cmd = [sys.executable, os.path.abspath(__file__), "cell", kind, str(size), path, str(n), str(budget)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=CELL_TIMEOUT_S,
                              preexec_fn=_limit_memory(CELL_MEMORY_MB))
    except subprocess.TimeoutExpired:
        return {"failed": f"did not finish within {CELL_TIMEOUT_S} s (first lint, 1 warm-up edit, 5 edits)"}
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or [""]
        hit_cap = "MemoryError" in proc.stderr or proc.returncode in (-9, 137)
        why = f"ran out of its {CELL_MEMORY_MB} MB address-space cap" if hit_cap else f"exit {proc.returncode}"
        return {"failed": f"{why}: {tail[0][:300]}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _run_cell(kind: str, size: int, path: str, n: int, budget: float) -> dict:
    doc = (gen.shell_script if kind == "shell" else gen.k8s_multidoc)(size)
    if path == "engine":
        return engine_edits(doc, "toggle", n, budget_s=budget, warmup=1)
    return lsp_edits(doc, "toggle", n, budget_s=budget, warmup=1, limit_mb=CELL_MEMORY_MB)


def measure_scaling(quick: bool, lsp_ok: bool) -> dict:
    """Measurement 3: the same keystroke on 1k, 10k and 100k lines."""
    sizes = [1_000, 10_000] if quick else [1_000, 10_000, 100_000]
    n = 20 if quick else 200
    budget = 20.0 if quick else 120.0
    out: dict = {"max_edits": n, "budget_s_per_cell": budget, "sizes": sizes, "memory_cap_mb": CELL_MEMORY_MB,
                 "timeout_s_per_cell": CELL_TIMEOUT_S, "cells": {}}
    for kind in ("shell", "k8s"):
        for size in sizes:
            cell: dict = {}
            say(f"[scaling] {kind} {size} lines: engine, toggle")
            cell["engine/toggle"] = _cell(kind, size, "engine", n, budget)
            if lsp_ok:
                say(f"[scaling] {kind} {size} lines: LSP push, toggle")
                cell["lsp-push/toggle"] = _cell(kind, size, "lsp", n, budget)
            out["cells"][f"{kind}-{size}"] = cell
    for kind in ("shell", "k8s"):
        small, big = out["cells"].get(f"{kind}-{sizes[0]}"), out["cells"].get(f"{kind}-{sizes[-1]}")
        for key in small or {}:
            a, b = small[key], (big or {}).get(key) or {}
            sa = (a.get("wall") or a.get("latency") or {}).get("p50_ms")
            sb = (b.get("wall") or b.get("latency") or {}).get("p50_ms")
            label = f"{kind} {key} p50 {sizes[-1]}/{sizes[0]}"
            if sa and sb:
                out.setdefault("ratios", {})[label] = round(sb / sa, 1)
                ca, cb = (a.get("cpu") or {}).get("p50_ms"), (b.get("cpu") or {}).get("p50_ms")
                if ca and cb:
                    out["ratios"][label + " (CPU)"] = round(cb / ca, 1)
            elif "failed" in b:
                out.setdefault("ratios", {})[label] = f"the {sizes[-1]}-line cell failed: {b['failed']}"
    return out


if __name__ == "__main__" and len(sys.argv) == 7 and sys.argv[1] == "cell":
    import logging

    logging.getLogger("pygls").setLevel(logging.ERROR)
    _, _, kind_, size_, path_, n_, budget_ = sys.argv
    print(json.dumps(_run_cell(kind_, int(size_), path_, int(n_), float(budget_))))
