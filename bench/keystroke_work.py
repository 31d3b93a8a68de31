"""What one keystroke costs the server's own code, in instructions, in this process.

``instructions.py`` counts the whole language server under callgrind, and
its count moves with the timers that fire between edits (section 0h of
RESULTS.md).  This counts only the work a keystroke asks of servelint: the
engine's lint of the new text and, unless ``--engine``, the conversion of
its diagnostics to LSP (``lsp.forms``) and the encoding of the
publishDiagnostics message (``pygls_compat.Splice``), as the server does
them, with no client, pipe or event loop.  The toggle edits of ``edits.py``
are typed after five of them warm the caches up; each command runs twice
under callgrind, with N edits and with none, and the difference over N is
the figure: it is the same from one run to the next.

    python bench/keystroke_work.py [--edits N] [--engine] FILE ...

FILE: one of the latency files (``edits.py``).  With ``PYTHONPATH=EXPORT/server``
it counts another tree (a ``git archive`` export, byte code compiled).
Needs valgrind (Debian: apt-get install valgrind).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gen  # noqa: E402
from edits import _file  # noqa: E402

FILES = {"shell-2000": lambda: gen.shell_script(2000), "k8s-5000": lambda: gen.k8s_multidoc(5000),
         "shell-2000-errors": lambda: gen.shell_errors(2000), "k8s-list-300-errors": lambda: gen.k8s_list(300)}
WARMUP = 5


def type_edits(name: str, n: int, engine_only: bool) -> None:
    """Type WARMUP + ``n`` toggle edits into ``name``, linting (and
    converting and encoding) each."""
    from servelint.engine import Engine
    from servelint.lsp.server import GC_YOUNG
    from servelint.settings import Settings

    # The server's collector settings (``lsp.server.run``): with Python's
    # default, a young collection in nearly every keystroke was counted here
    # that the server never makes.
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
    doc = FILES[name]()
    path = os.path.join("/tmp", "servelint-bench", _file(doc.kind))
    engine = Engine(Settings(max_launches=0))
    publish = None
    if not engine_only:
        from lsprotocol import types
        from pygls.protocol import JsonRPCNotification

        from servelint.lsp import convert, forms
        from servelint.lsp.pygls_compat import Splice

        splice = Splice()
        converter = convert.converter_factory(splice)
        document = forms.DocumentForms(converter.unstructure, converter.structure)

        def publish(result, version: int) -> None:
            src = result.source.with_encoding("utf-16")
            shown = document.convert(result, path, "utf-16", lambda p: src, lambda p: version)
            message = JsonRPCNotification(
                method=types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, jsonrpc="2.0",
                params=types.PublishDiagnosticsParams(uri="file://" + path, diagnostics=shown.encoded(),
                                                      version=version))
            splice.encode(message, converter.unstructure)

    text = doc.text
    for version, edit in enumerate(gen.toggle_edits(doc.text, doc.marker, WARMUP + n)):
        text = gen.apply(text, edit)
        result = engine.lint(path, text)
        if publish is not None:
            publish(result, version)
        gc.freeze()  # as the server does after each lint (Session._settle_heap)


def _collected(name: str, n: int, engine_only: bool) -> int:
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
           os.path.abspath(__file__), "--type", str(n), name] + (["--engine"] if engine_only else [])
    run = subprocess.run(cmd, capture_output=True, text=True, check=True)
    m = re.search(r"Collected : (\d+)", run.stderr)
    if m is None:
        raise SystemExit(f"callgrind printed no count:\n{run.stderr[-2000:]}")
    return int(m.group(1))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="+", choices=sorted(FILES), metavar="FILE")
    p.add_argument("--edits", type=int, default=30)
    p.add_argument("--engine", action="store_true", help="the engine's lint only")
    p.add_argument("--type", type=int, default=None, help=argparse.SUPPRESS)  # the counted child
    args = p.parse_args()
    if args.type is not None:
        for name in args.files:
            type_edits(name, args.type, args.engine)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("keystroke_work: needs valgrind (Debian: apt-get install valgrind)")
    for name in args.files:
        per_edit = (_collected(name, args.edits, args.engine) - _collected(name, 0, args.engine)) / args.edits
        print(json.dumps({"file": name, "edits": args.edits, "work": "engine" if args.engine else "engine+lsp",
                          "instructions_per_edit_M": round(per_edit / 1e6, 2)}))


if __name__ == "__main__":
    main()
