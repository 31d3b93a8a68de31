#!/usr/bin/env python3
"""Record vLLM's own verdicts for the rule cases (not run by CI).

    python tests/conformance/rules/run_oracle.py [RELEASE ...] [--only FAMILY[,FAMILY]] [--missing] [-j 2]

Every ``cases/<family>.json`` of this folder is run through the vllm-oracle
tool (``../shared/tools/vllm-oracle`` beside the checkout, or
``$VLLM_ORACLE_DIR``; its home ``$VLLM_ORACLE_HOME``) once per release, with
``--gpu-defaults`` (users run vLLM on GPUs), and the verdicts go to
``verdicts/<release>.json``: per case ``<family>/<name>``, vLLM's result,
stage, exception class and message, machine paths scrubbed.  Each case runs
in a forked child of one process (the oracle's batch mode), so no case sees
another's parser state.  A case whose ``releases`` leave a release out is not
run for it.  ``--missing`` runs only the cases a verdict file lacks.
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
sys.path.insert(0, str(REPO / "server"))
sys.path.insert(0, str(HERE))

from cases import case_releases, load_cases, model_dir  # noqa: E402

ORACLE_DIR = Path(os.environ.get("VLLM_ORACLE_DIR", REPO.parent / "shared" / "tools" / "vllm-oracle"))
FIELDS = ("result", "stage", "exception_class", "message", "error", "message_source", "raised_at", "validation_title")


def oracle_argv(argv: list[str]) -> list[str]:
    out = list(argv)
    if out and (d := model_dir(out[0])) is not None:
        out[0] = str(d)
    for i, w in enumerate(out[:-1]):
        if w == "--config":
            out[i + 1] = str((HERE / out[i + 1]).resolve())
    return out


def scrub(text: str | None) -> str | None:
    """Model paths become ``<models>/NAME`` so verdicts do not name this machine."""
    if text is None:
        return None
    text = re.sub(r"/[\w./-]*/models/([\w.-]+)", r"<models>/\1", text)
    text = re.sub(r" at 0x[0-9a-f]+>", ">", text)
    return re.sub(r"/[\w./-]*/vllm-oracle[\w./-]*", "<oracle-home>", text)


def argparse_message(error: str | None) -> str | None:
    """The message of the one pydantic error an argparse error wraps
    (``SystemExit(2): argument --compilation-config/-cc: 1 validation error
    for CompilationConfig ... Value error, MESSAGE [type=...``), else None."""
    if not error or not error.startswith("SystemExit(") or "1 validation error for " not in error:
        return None
    m = re.search(r"\n  (?:Value error|Assertion failed), (.*?) \[type=", error, re.S)
    return m.group(1) if m else None


def run(release: str, cases: dict[str, dict]) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"rules-{release}-") as tmp:
        cases_file, out_file = Path(tmp) / "cases.json", Path(tmp) / "results.json"
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
    out = {}
    for cid, r in results.items():
        v = {k: r[k] for k in FIELDS if k in r and r[k] is not None}
        if "message" not in v and (inner := argparse_message(v.get("error"))) is not None:
            v["message"] = inner
        for k in ("message", "error"):
            if k in v:
                v[k] = scrub(v[k])
        if "error" in v:
            v["error"] = v["error"][:2000]
        out[cid] = v
    return out


def main() -> int:
    from servelint.knowledge import validators

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("releases", nargs="*", default=list(validators.scanned_releases()))
    ap.add_argument("--only", default="", help="comma-separated families")
    ap.add_argument("--missing", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    args = ap.parse_args()
    only = {f for f in args.only.split(",") if f}
    cases = {cid: c for cid, c in load_cases().items() if not only or cid.split("/", 1)[0] in only}

    def one(release: str) -> None:
        path = HERE / "verdicts" / f"{release}.json"
        old = json.loads(path.read_text())["verdicts"] if path.exists() else {}
        todo = {cid: c for cid, c in cases.items() if release in case_releases(c)
                and not (args.missing and cid in old)}
        if not todo:
            return
        new = run(release, todo)
        verdicts = {**old, **new}
        known = load_cases()
        verdicts = {cid: v for cid, v in verdicts.items() if cid in known and release in case_releases(known[cid])}
        doc = {
            "generated_by": "tests/conformance/rules/run_oracle.py (vllm-oracle oracle.sh --gpu-defaults --json)",
            "gpu_defaults": True,
            "vllm_version": release,
            "verdicts": dict(sorted(verdicts.items())),
        }
        path.write_text(json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n")

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for fut in [pool.submit(one, r) for r in args.releases]:
            fut.result()
    return 0


if __name__ == "__main__":
    sys.exit(main())
