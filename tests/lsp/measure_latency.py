"""Time from didChange to publishDiagnostics on a 2,000-line launch script.

Not a test (no timing assertions belong in tests): run it by hand,

    PYTHONPATH=server python tests/lsp/measure_latency.py [--edits 30] [--lines 2000]

It starts ``servelint lsp --stdio`` as VS Code would (push diagnostics),
opens a generated script of realistic launch blocks, then makes one-character
edits inside a flag (alternating between a typo and its fix, so every edit
changes the diagnostics) and reports the median and spread of the time until
the matching publish arrives.  The debounce (30 ms) is included.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pytest_lsp import client_capabilities
from pytest_lsp.client import make_test_lsp_client

SERVER_DIR = str(Path(__file__).resolve().parents[2] / "server")


def block(n: int) -> str:
    return f"""# block {n}: "quotes" and $NOT_A_VAR in a comment
MODEL_{n}="org/model-{n}"
PORT_{n}=$((8000 + {n} % 1000))
start_{n}() {{
  local gpu="$1"  # comment
  CUDA_VISIBLE_DEVICES="$gpu" vllm serve "$MODEL_{n}" \\
    --port "$PORT_{n}" \\
    --max-model-len=32768 \\
    --served-model-name 'model-{n}' \\
    --chat-template "${{TEMPLATE_DIR:-/opt/templates}}/chat.jinja" \\
    --dtype=bfloat16 &
}}
cat > /tmp/notes-{n}.txt <<NOTES
launch {n} uses $MODEL_{n}
NOTES
vllm serve facebook/opt-125m --host 0.0.0.0 \\
  --tensor-parallel-size 1 \\
  --gpu-memory-utilization 0.85 \\
  --max-num-seqs 64 \\
  --enable-prefix-caching  # trailing comment
echo "started {n}"

"""


def script(lines: int) -> str:
    out = ["#!/bin/bash\nset -euo pipefail\n"]
    n = 0
    while sum(s.count("\n") for s in out) < lines:
        out.append(block(n))
        n += 1
    return "".join(out)


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=2000)
    ap.add_argument("--edits", type=int, default=30)
    args = ap.parse_args()
    text = script(args.lines)
    target = text.rindex("--max-num-seqs")  # the last launch: worst case for a forward scan
    line = text.count("\n", 0, target)
    col = target - (text.rfind("\n", 0, target) + 1) + len("--max-num")

    client = make_test_lsp_client()
    published: list[tuple[float, types.PublishDiagnosticsParams]] = []
    client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = (
        lambda p: published.append((time.perf_counter(), p))
    )
    await client.start_io(sys.executable, "-m", "servelint", "lsp",
                          env={**os.environ, "PYTHONPATH": SERVER_DIR})
    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri="file:///tmp"))
    uri = "file:///tmp/servelint-latency.sh"
    t0 = time.perf_counter()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="shellscript", version=1, text=text)))
    while not published:
        await asyncio.sleep(0.001)
    print(f"{text.count(chr(10))} lines, {text.count('vllm serve')} launches; "
          f"first lint after open: {(published[0][0] - t0) * 1000:.0f} ms")

    samples = []
    for v in range(2, args.edits + 2):
        # Insert "-" (typo: --max-num--seqs) or delete it again.
        if v % 2 == 0:
            change = types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=line, character=col),
                                  end=types.Position(line=line, character=col)), text="-")
        else:
            change = types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=line, character=col),
                                  end=types.Position(line=line, character=col + 1)), text="")
        mark = len(published)
        start = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=v), content_changes=[change]))
        while not any(p.version == v for _, p in published[mark:]):
            await asyncio.sleep(0.0005)
        arrived = next(t for t, p in published[mark:] if p.version == v)
        samples.append((arrived - start) * 1000)
        await asyncio.sleep(0.1)
    await client.shutdown_session()
    samples.sort()
    print(f"didChange -> publishDiagnostics over {len(samples)} edits: median {statistics.median(samples):.0f} ms, "
          f"min {samples[0]:.0f} ms, p90 {samples[int(len(samples) * 0.9) - 1]:.0f} ms, max {samples[-1]:.0f} ms")


if __name__ == "__main__":
    asyncio.run(main())
