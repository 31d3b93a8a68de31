"""What servelint's per-release knowledge costs: load times and bytes.

    python bench/knowledge.py [--runs 15]

Each step is timed in fresh processes (``--runs`` of them, medians and
minima printed), with warm byte code: importing ``servelint.knowledge``
(reads ``index.json``), loading one release's ``vllm serve`` tables (the
oldest, one in the middle, the newest; the first load also reads the
shared option rows), a second release in the same process, another entry
point of the same release, the first ``Option.help``, the first
``Option.json``, the first architecture lookup and the first history
question.  Then the bytes: the data directory, and the wheel ``pip wheel``
builds from this checkout.  Nothing here asserts; bench/RESULTS.md records
the numbers with this command.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "server", "servelint", "knowledge", "data")

PROBE = r"""
import json, sys, time
t0 = time.perf_counter()
import servelint.knowledge as k
t1 = time.perf_counter()
from servelint.knowledge import history
rel = sys.argv[1]; other = sys.argv[2]
kn = k.load(rel)
t2 = time.perf_counter()
k.load(other)
t3 = time.perf_counter()
kn.for_entry("api_server")
t4 = time.perf_counter()
kn.by_string["--max-model-len"].help
t5 = time.perf_counter()
next(o for o in kn.options if o.json).json
t6 = time.perf_counter()
arch = kn.architectures
"LlamaForCausalLM" in arch and arch["LlamaForCausalLM"].supports_pp
t7 = time.perf_counter()
history.added_in("--max-model-len"); history.change("--swap-space")
t8 = time.perf_counter()
ms = lambda a, b: round((b - a) * 1000, 3)
print(json.dumps({"import": ms(t0, t1), "load": ms(t1, t2), "second release": ms(t2, t3),
                  "api_server entry": ms(t3, t4), "first help": ms(t4, t5), "first json": ms(t5, t6),
                  "first architecture": ms(t6, t7), "first history": ms(t7, t8)}))
"""


def run(rel: str, other: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "server")
    out = subprocess.run([sys.executable, "-c", PROBE, rel, other], env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    sys.path.insert(0, os.path.join(ROOT, "server"))
    from servelint import knowledge

    releases = knowledge.RELEASES
    picks = [releases[0], releases[len(releases) // 2], releases[-1]]
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(ROOT, "server", "servelint")], check=True)
    print(f"{len(releases)} releases; {args.runs} fresh processes per row; ms: median (min)")
    for rel in picks:
        other = releases[1] if rel != releases[1] else releases[2]
        samples = [run(rel, other) for _ in range(args.runs)]
        cells = []
        for key in samples[0]:
            values = [s[key] for s in samples]
            cells.append(f"{key} {statistics.median(values):.2f} ({min(values):.2f})")
        print(f"{rel}: " + "; ".join(cells))
    sizes = {}
    for name in sorted(os.listdir(DATA)):
        sizes[name] = os.path.getsize(os.path.join(DATA, name))
    release_files = [v for k, v in sizes.items() if k.startswith("release-")]
    shared = {k: v for k, v in sizes.items() if not k.startswith("release-")}
    print(f"data/: {sum(sizes.values()):,} bytes in {len(sizes)} files; {len(release_files)} release files "
          f"{sum(release_files):,} bytes ({min(release_files):,}-{max(release_files):,} each)")
    print("shared: " + ", ".join(f"{k} {v:,}" for k, v in shared.items()))
    with tempfile.TemporaryDirectory() as tmp:
        # Built as users' pip builds it: in an isolated environment with the
        # build backend pyproject.toml names (the venv's own setuptools may
        # be too old for its metadata).
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", tmp, ROOT],
                       check=True, capture_output=True)
        wheel = next(f for f in os.listdir(tmp) if f.endswith(".whl"))
        size = os.path.getsize(os.path.join(tmp, wheel))
        import zipfile

        with zipfile.ZipFile(os.path.join(tmp, wheel)) as z:
            data = sum(i.compress_size for i in z.infolist() if "/knowledge/data/" in i.filename)
        print(f"wheel {wheel}: {size:,} bytes, of which knowledge/data {data:,} bytes (compressed in the wheel)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
