"""Check the corpus truth (expected.yaml) against vLLM itself.

Every launch in expected.yaml that carries an ``oracle`` argv is run through
the vLLM oracle (shared/tools/vllm-oracle) of its release, as are its
``fixed`` argv and any finding's own ``oracle`` case, in one batch per
release.  The script then checks that

* a launch's ``verdict`` is what vLLM says (``OK``, or text of its error),
* a launch's ``fixed`` argv is OK (no error hides behind the first one),
* a finding's ``oracle.expect`` text is in its own case's error, and
* a finding whose evidence quotes the oracle ("oracle X.Y.Z: a ... b") has
  each quoted fragment in the error of its launch (or of its own case).

It writes what vLLM said to oracle-results.json, the record the truth rests
on.  It needs the oracle's home (~/.cache/vllm-oracle) with the releases set
up, so it is not part of the test suite; run it after changing expected.yaml:

    .venv/bin/python tests/realworld/oracle_check.py [--release 0.33.0] [--only PATH]

Releases the oracle does not have (pins older than 0.25.0) are skipped: their
truth cites vLLM's source instead.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ORACLE = Path(os.environ.get("VLLM_ORACLE", "/work/shared/tools/vllm-oracle/oracle.sh"))
RESULTS = HERE / "oracle-results.json"


def _norm(text: str | None) -> str:
    return re.sub(r"\s+", " ", text or "").strip()


def _argv(text: str) -> list[str]:
    text = text.replace("{configs}", str(HERE / "oracle" / "configs")).replace("{files}", str(HERE / "files"))
    return shlex.split(text)


def load_truth() -> dict:
    with open(HERE / "expected.yaml", encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def available_releases() -> set[str]:
    try:
        out = subprocess.run([str(ORACLE), "--versions"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return set()
    return {line.strip() for line in out.splitlines() if line.strip()}


def launch_of(entry: dict, path: str, finding: dict) -> tuple[str, dict] | None:
    """The launch a finding belongs to: ``launch: FILE:LINE``, else the
    nearest launch at or above it in the same file."""
    ref = finding.get("launch")
    truth = entry["_truth"]
    if ref:
        fpath, _, fline = ref.rpartition(":")
        for launch in truth["files"].get(fpath, {}).get("launches") or []:
            if launch["line"] == int(fline):
                return fpath, launch
        return None
    launches = entry.get("launches") or []
    above = [l for l in launches if l["line"] <= finding["line"]]
    below = [l for l in launches if l["line"] > finding["line"]]
    # A heredoc-written config comes before the launch that reads it.
    best = max(above, key=lambda l: l["line"]) if above else min(below, key=lambda l: l["line"], default=None)
    return (path, best) if best else None


def collect(truth: dict, only: str | None):
    """(cases per release, checks): each check is a callable over results."""
    cases: dict[str, dict[str, list[str]]] = {}
    checks = []
    for path, entry in (truth.get("files") or {}).items():
        if only and not path.startswith(only):
            continue
        entry["_truth"] = truth
        file_release = str(entry.get("release", ""))
        for launch in entry.get("launches") or []:
            if "oracle" not in launch:
                continue
            rel = str(launch.get("release", file_release))
            name = f"{path}:{launch['line']}"
            cases.setdefault(rel, {})[name] = _argv(launch["oracle"])
            verdict = str(launch.get("verdict", ""))
            checks.append(("verdict", rel, name, verdict))
            if "fixed" in launch:
                cases[rel][name + ":fixed"] = _argv(launch["fixed"])
                checks.append(("verdict", rel, name + ":fixed", "OK"))
        for finding in entry.get("findings") or []:
            own = finding.get("oracle")
            rel = str(finding.get("release", file_release))
            ev = str(finding.get("evidence", ""))
            m = re.match(r"oracle (\d+\.\d+\.\d+)[^:]*: (.*)", ev, re.S)
            if own:
                name = f"{path}:{finding['line']}:{finding.get('code') or finding.get('flag') or 'finding'}"
                cases.setdefault(rel, {})[name] = _argv(own["argv"])
                checks.append(("contains", rel, name, own.get("expect") or (m.group(2) if m else "")))
            elif m:
                owner = launch_of(entry, path, finding)
                if owner is None or "oracle" not in owner[1]:
                    checks.append(("missing", m.group(1), f"{path}:{finding['line']}", "no launch with an oracle case"))
                    continue
                fpath, launch = owner
                lrel = str(launch.get("release", truth["files"][fpath].get("release", "")))
                if lrel != m.group(1):
                    checks.append(("missing", m.group(1), f"{path}:{finding['line']}", f"evidence names {m.group(1)}, launch runs {lrel}"))
                checks.append(("contains", lrel, f"{fpath}:{launch['line']}", m.group(2)))
    return cases, checks


def run_release(release: str, batch: dict[str, list[str]]) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        cases = Path(tmp) / "cases.json"
        out = Path(tmp) / "out.json"
        cases.write_text(json.dumps(batch))
        proc = subprocess.run(
            [str(ORACLE), release, "--gpu-defaults", "--json", str(cases), "--out", str(out)],
            capture_output=True, text=True, cwd=HERE,
        )
        if not out.exists():
            sys.exit(f"oracle {release} failed:\n{proc.stderr[-2000:]}")
        return json.loads(out.read_text())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--release", action="append", help="only these releases")
    ap.add_argument("--only", help="only files under this path prefix")
    args = ap.parse_args()

    truth = load_truth()
    cases, checks = collect(truth, args.only)
    have = available_releases()
    record = json.loads(RESULTS.read_text()) if RESULTS.exists() and (args.only or args.release) else {}
    results: dict[str, dict] = {}
    for rel in sorted(cases):
        if args.release and rel not in args.release:
            continue
        if rel not in have:
            print(f"skip {rel}: not set up in the oracle ({len(cases[rel])} cases)")
            continue
        print(f"oracle {rel}: {len(cases[rel])} cases", flush=True)
        for name, res in run_release(rel, cases[rel]).items():
            results[name] = res
            record[name] = {
                "release": rel,
                "argv": [a.replace(str(HERE) + "/", "") for a in cases[rel][name]],
                "result": res.get("result"),
                "error": _norm(res.get("error"))[:600] or None,
            }
            if res.get("summary"):
                record[name]["summary"] = res["summary"]
    failures = []
    for kind, rel, name, want in checks:
        if kind == "missing":
            failures.append(f"{name}: {want}")
            continue
        if name not in results:
            continue
        res = results[name]
        err = _norm(res.get("error"))
        if kind == "verdict":
            if want == "OK":
                if res.get("result") != "OK":
                    failures.append(f"{name} [{rel}]: expected OK, got {err[:300]}")
            elif res.get("result") == "OK" or _norm(want) not in err:
                failures.append(f"{name} [{rel}]: expected {want!r}, got {err[:300] or 'OK'}")
        else:
            for part in (p.strip() for p in _norm(want).split("...")):
                if part and part not in err:
                    failures.append(f"{name} [{rel}]: {part!r} not in {err[:300] or 'OK'}")
    RESULTS.write_text(json.dumps(dict(sorted(record.items())), indent=1, ensure_ascii=False) + "\n")
    for f in failures:
        print("FAIL", f)
    print(f"{len(checks)} checks, {len(failures)} failed; results in {RESULTS.name}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
