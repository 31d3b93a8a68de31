"""Instructions the language server executes per keystroke, counted by callgrind.

Wall and CPU times move with the neighbours' load on a shared machine; the
instructions a keystroke costs do not.  The server runs under ``valgrind
--tool=callgrind`` with instrumentation off (``--instr-atstart=no``: the
start-up runs at near full speed and is not counted); once the document is
open and its first diagnostics are in, it is switched on (``callgrind_control
-i on``), the toggle edits of ``edits.py`` are typed, each awaited (push: its
publishDiagnostics; pull: the answer to a pull), and it is switched off
again.  The count covers every thread of the server (the lint worker
too) and the event loop's idle turns between edits, which are few.

    python bench/instructions.py [--edits N] [--pull] FILE ...

FILE: one of the latency files (``edits.py``): shell-2000, k8s-5000,
shell-2000-errors, k8s-list-300-errors.  Prints one JSON line per file.
Needs valgrind (Debian: apt-get install valgrind).
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gen  # noqa: E402
from edits import _file, _language  # noqa: E402
from lspclient import PULL_PROFILE, PUSH_PROFILE, Driver, position  # noqa: E402

FILES = {"shell-2000": lambda: gen.shell_script(2000), "k8s-5000": lambda: gen.k8s_multidoc(5000),
         "shell-2000-errors": lambda: gen.shell_errors(2000), "k8s-list-300-errors": lambda: gen.k8s_list(300)}


def _callgrind_python(out_dir: str) -> str:
    """A stand-in for the interpreter that runs it under callgrind."""
    wrapper = os.path.join(out_dir, "python-under-callgrind")
    with open(wrapper, "w") as fh:
        fh.write("#!/bin/sh\n"
                 f"exec valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file={out_dir}/callgrind.out.%p "
                 f"{sys.executable} \"$@\"\n")
    os.chmod(wrapper, 0o755)
    return wrapper


def _control(pid: int, *args: str) -> None:
    subprocess.run(["callgrind_control", *args, str(pid)], check=True, capture_output=True, timeout=120)


def _total(out_dir: str) -> int:
    total = 0
    for path in glob.glob(os.path.join(out_dir, "callgrind.out.*")):
        with open(path) as fh:
            for line in fh:
                if line.startswith(("summary:", "totals:")):
                    total = max(total, int(line.split()[1]))
    return total


async def _count(name: str, n: int, pull: bool) -> dict:
    doc = FILES[name]()
    out_dir = tempfile.mkdtemp(prefix="servelint-bench-callgrind-")
    root = tempfile.mkdtemp(prefix="servelint-bench-lsp-")
    d = Driver(root, profile=PULL_PROFILE if pull else PUSH_PROFILE, python=_callgrind_python(out_dir))
    await d.start()
    try:
        uri = d.uri(_file(doc.kind))
        text = doc.text
        d.open(uri, text, _language(doc.kind))
        if pull:
            shown = len((await d.pull(uri, timeout=1200)).items)
        else:
            await d.published_version(uri, 1, timeout=1200)
            shown = d.published[uri][-1][2]
        _control(d.pid, "-i", "on")
        for at, dele, ins in gen.toggle_edits(doc.text, doc.marker, n):
            start = position(text, at)
            end = position(text, at + dele) if dele else start
            text = gen.apply(text, (at, dele, ins))
            version = d.change(uri, start, end, ins)
            if pull:
                await d.pull(uri, timeout=600)
            else:
                await d.published_version(uri, version, timeout=600)
        _control(d.pid, "-i", "off")
        _control(d.pid, "-d")
        count = _total(out_dir)
    finally:
        await d.stop()
        shutil.rmtree(out_dir, ignore_errors=True)
    return {"file": name, "mode": "pull" if pull else "push", "diagnostics": shown, "edits": n,
            "instructions_per_edit_M": round(count / n / 1e6, 2)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="+", choices=sorted(FILES), metavar="FILE")
    p.add_argument("--edits", type=int, default=30)
    p.add_argument("--pull", action="store_true", help="a pulling client (Neovim's capabilities)")
    args = p.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        sys.exit("bench/instructions.py needs valgrind and callgrind_control on PATH")
    for name in args.files:
        print(json.dumps(asyncio.run(_count(name, args.edits, args.pull))), flush=True)


if __name__ == "__main__":
    main()
