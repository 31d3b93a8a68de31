"""Measurement 6: the language server's resident memory with 100 open documents.

Two workspaces: 100 files of a generated repository (every form, 5–200
lines each: a realistic editor session) and 100 copies of the 2,000-line
script (a heavy one).  RSS is read from /proc after every document has
its first diagnostics, i.e. after the engine has kept its per-document state.
"""

from __future__ import annotations

import asyncio
import os
import tempfile

import gen
from common import say
from lspclient import Driver, rss_kib

LANG = {".sh": "shellscript", ".yaml": "yaml"}


def _language(path: str) -> str:
    return LANG.get(os.path.splitext(path)[1], "dockerfile")


async def _session(docs: list[tuple[str, str]]) -> dict:
    root = tempfile.mkdtemp(prefix="servelint-bench-mem-")
    d = Driver(root)
    await d.start()
    try:
        await asyncio.sleep(0.5)  # let `initialized` finish (settings, watchers)
        base, _ = rss_kib(d.pid)
        uris = []
        for name, text in docs:
            uri = d.uri(name)
            d.open(uri, text, _language(name))
            uris.append(uri)
        for uri in uris:
            await d.published_version(uri, 1, timeout=600)
        cur, peak = rss_kib(d.pid)
        return {"documents": len(docs), "lines": sum(t.count("\n") for _, t in docs),
                "rss_after_initialize_mb": round(base / 1024, 1) if base else None,
                "rss_mb": round(cur / 1024, 1) if cur else None, "peak_rss_mb": round(peak / 1024, 1) if peak else None}
    finally:
        await d.stop()


def measure(quick: bool) -> dict:
    repo = tempfile.mkdtemp(prefix="servelint-bench-memrepo-")
    by_form = gen.repository(repo, 100, seed=1)
    mixed = []
    for files in by_form.values():
        for f in files:
            with open(f) as fh:
                mixed.append((os.path.relpath(f, repo), fh.read()))
    say("[memory] 100 mixed documents")
    out = {"mixed-100": asyncio.run(_session(mixed))}
    if not quick:
        big = gen.shell_script(2000).text
        say("[memory] 100 x 2,000-line scripts")
        out["shell-2000-x100"] = asyncio.run(_session([(f"s{i}/launch.sh", big) for i in range(100)]))
    return out
