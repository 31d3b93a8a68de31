#!/usr/bin/env python3
"""Record vLLM's own verdicts for the top-25 rule cases (not run by CI).

    VLLM_ORACLE_HOME=/work/oracle-home python tests/conformance/top25/run_oracle.py [RELEASE ...] [-j 2] [--missing]

Runs the vllm-oracle tool (``shared/tools/vllm-oracle``, or
``$VLLM_ORACLE_DIR``) once per release with ``--gpu-defaults`` over
``cases.json`` and writes ``verdicts-<release>-gpu.json``: per case vLLM's
result, stage, exception class and message (machine paths scrubbed).
Model names are directories of ``models/`` here or of
``tests/conformance/models/``, passed to the oracle by absolute path; the
oracle runs in this directory so ``--config yaml/...`` resolves.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
SHARED_MODELS = HERE.parent / "models"
RELEASES = ("0.25.0", "0.26.0", "0.27.0", "0.27.1", "0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0")
ORACLE_DIR = Path(os.environ.get("VLLM_ORACLE_DIR", REPO.parent / "shared" / "tools" / "vllm-oracle"))
FIELDS = ("result", "stage", "exception_class", "message", "error", "message_source", "raised_at", "validation_title")


def model_dir(name: str) -> Path | None:
    for base in (HERE / "models", SHARED_MODELS):
        if (base / name / "config.json").is_file():
            return base / name
    return None


def load_cases() -> dict[str, dict]:
    raw = json.loads((HERE / "cases.json").read_text())
    return {k: (v if isinstance(v, dict) else {"argv": v}) for k, v in raw.items()}


def oracle_argv(argv: list[str]) -> list[str]:
    out = list(argv)
    if out and (d := model_dir(out[0])) is not None:
        out[0] = str(d)
    return out


def scrub(text: str | None) -> str | None:
    """Model paths become ``<models>/NAME`` so verdicts do not name this machine."""
    if text is None:
        return None
    text = re.sub(r"/[\w./-]*/models/([\w.-]+)", r"<models>/\1", text)
    text = re.sub(r" at 0x[0-9a-f]+>", ">", text)
    return re.sub(r"/[\w./-]*/oracle-home/[\w./-]*", "<oracle-home>", text)


def run(release: str, cases: dict[str, dict]) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"top25-{release}-") as tmp:
        cases_file = Path(tmp) / "cases.json"
        out_file = Path(tmp) / "results.json"
        payload = {}
        for cid, c in cases.items():
            argv = oracle_argv(c["argv"])
            payload[cid] = {"argv": argv, "env": c["env"]} if c.get("env") else argv
        cases_file.write_text(json.dumps(payload))
        started = time.monotonic()
        cmd = [str(ORACLE_DIR / "oracle.sh"), release, "--gpu-defaults", "--json", str(cases_file), "--out", str(out_file)]
        proc = subprocess.run(cmd, cwd=HERE, capture_output=True, text=True)
        if proc.returncode != 0 or not out_file.exists():
            raise RuntimeError(f"oracle {release} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        results = json.loads(out_file.read_text())
    print(f"[{release}] {len(results)} cases in {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    verdicts = {}
    for cid, r in results.items():
        v = {k: r[k] for k in FIELDS if k in r and r[k] is not None}
        for k in ("message", "error"):
            if k in v:
                v[k] = scrub(v[k])
        if "error" in v:
            v["error"] = v["error"][:2000]
        verdicts[cid] = v
    return {
        "generated_by": "tests/conformance/top25/run_oracle.py (vllm-oracle oracle.sh --gpu-defaults --json)",
        "gpu_defaults": True,
        "vllm_version": release,
        "verdicts": dict(sorted(verdicts.items())),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("releases", nargs="*", default=list(RELEASES))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--missing", action="store_true",
                    help="run only the cases a release's verdict file lacks, and merge them in")
    args = ap.parse_args()
    cases = load_cases()

    def one(release: str) -> None:
        out = HERE / f"verdicts-{release}-gpu.json"
        old = json.loads(out.read_text())["verdicts"] if args.missing and out.exists() else {}
        todo = {cid: c for cid, c in cases.items() if cid not in old}
        if not todo:
            return
        doc = run(release, todo)
        doc["verdicts"] = dict(sorted({**old, **doc["verdicts"]}.items()))
        doc["verdicts"] = {cid: v for cid, v in doc["verdicts"].items() if cid in cases}
        out.write_text(json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n")

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for fut in [pool.submit(one, r) for r in args.releases]:
            fut.result()
    return 0


if __name__ == "__main__":
    sys.exit(main())
