#!/usr/bin/env python3
"""Regenerate vLLM's own verdicts for the conformance cases (not run by CI).

    VLLM_ORACLE_HOME=/work/oracle-home \\
        python tests/conformance/run_oracle.py [RELEASE ...] [-j 2] [--only PREFIX]

For each release (default: every release in ``RELEASES`` that the oracle has
ready) this runs the vllm-oracle tool (``../shared/tools/vllm-oracle``, or
``$VLLM_ORACLE_DIR``) over every case in ``cases/*.json`` with
``--gpu-defaults`` (users run vLLM on GPUs; see the tool's README), and writes
``verdicts/<release>.json``: per case, vLLM's verdict (ok / error), the stage
that stopped it, the exception class and vLLM's message.

The oracle runs in this directory, so ``--config configs/x.yaml`` finds the
fixtures, and bundled model names (``llama``...) resolve to the oracle's
``models/<name>``, whose ``config.json`` files are copied in ``models/``.

``run_oracle.py replayssm [--releases R ...]`` regenerates the ReplaySSM
family's verdicts instead (``replayssm/verdicts-<release>[-gpu].json``, for
tests/rules/test_replayssm_conformance.py).

``--only PREFIX[,PREFIX...]`` re-runs the cases whose id starts with a PREFIX and merges
them into the existing verdict files (for adding cases without re-running
all of them).

``run_oracle.py releases [RELEASE ...]`` regenerates the every-minor suite
(``releases/verdicts/<release>.json``; default: the newest release of each
minor servelint knows) with ``tools/knowledge/vllm_oracle/parse_oracle.py``,
which runs each release's own entry points up to the start of the server:
it puts each release where it can run with ``tools/knowledge/provision.py``
(the oracle's home for the releases it has, else servelint's release home,
deleting the unpacked release afterwards).
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
REPO = HERE.parent.parent
RELEASES = ("0.25.0", "0.26.0", "0.27.0", "0.27.1", "0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0")


def _oracle_dir() -> Path:
    """$VLLM_ORACLE_DIR, else ``shared/tools/vllm-oracle`` beside the
    checkout or one of its parents (a worktree sits deeper)."""
    if os.environ.get("VLLM_ORACLE_DIR"):
        return Path(os.environ["VLLM_ORACLE_DIR"])
    for parent in REPO.parents:
        if (parent / "shared" / "tools" / "vllm-oracle").is_dir():
            return parent / "shared" / "tools" / "vllm-oracle"
    return REPO.parent / "shared" / "tools" / "vllm-oracle"


ORACLE_DIR = _oracle_dir()


def load_cases() -> dict[str, dict]:
    """Every case, as ``{"argv": [...], "env": {...}}``, by id."""
    cases: dict[str, dict] = {}
    for path in sorted((HERE / "cases").glob("*.json")):
        for cid, case in json.loads(path.read_text())["cases"].items():
            if cid in cases:
                raise SystemExit(f"duplicate case id {cid} in {path.name}")
            cases[cid] = case if isinstance(case, dict) else {"argv": case}
    return cases


def ready_releases() -> list[str]:
    out = subprocess.run([str(ORACLE_DIR / "oracle.sh"), "--versions"], capture_output=True, text=True, check=True)
    return out.stdout.split()


def _scrub(text: str | None) -> str | None:
    """Drop machine paths from messages so the golden files are stable."""
    if text is None:
        return None
    text = text.replace(str(ORACLE_DIR / "models") + "/", "<models>/")
    text = text.replace(str(HERE) + "/", "")
    text = re.sub(r" at 0x[0-9a-f]+>", ">", text)  # object addresses differ per run
    return re.sub(r"/[\w./-]*/oracle-home/[\w./-]*", "<oracle-home>", text)


def verdict(result: dict) -> dict:
    """The part of an oracle result the conformance test compares with."""
    if result["result"] == "OK":
        return {"verdict": "ok"}
    cls = result.get("exception_class", "")
    if cls == "SystemExit":
        # "SystemExit(2): unrecognized arguments: --x 1" -> the argparse message
        message = result["error"].split(": ", 1)[1] if ": " in result["error"] else result["error"]
    else:
        message = result.get("message") or result.get("error")
    out = {
        "verdict": "error",
        "stage": result.get("stage"),
        "exception": cls.rsplit(".", 1)[-1],
        "message": _scrub(message),
    }
    if result.get("raised_at"):
        out["raised_at"] = result["raised_at"]
    return out


def oracle(release: str, cases: dict[str, dict], cwd: Path, gpu: bool = True) -> dict[str, dict]:
    """vLLM's raw results (the oracle's JSON) for ``{id: {"argv", "env"}}``."""
    with tempfile.TemporaryDirectory(prefix=f"conformance-{release}-") as tmp:
        cases_file = Path(tmp) / "cases.json"
        out_file = Path(tmp) / "results.json"
        cases_file.write_text(json.dumps({cid: (c if c.get("env") else c["argv"]) for cid, c in cases.items()}))
        started = time.monotonic()
        cmd = [str(ORACLE_DIR / "oracle.sh"), release, *(["--gpu-defaults"] if gpu else []),
               "--json", str(cases_file), "--out", str(out_file)]
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
        if proc.returncode != 0 or not out_file.exists():
            raise RuntimeError(f"oracle {release} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        results = json.loads(out_file.read_text())
    print(f"[{release}{' gpu' if gpu else ''}] {len(results)} cases in {time.monotonic() - started:.0f} s",
          file=sys.stderr, flush=True)
    return results


def run_release(release: str, cases: dict[str, dict]) -> dict[str, dict]:
    return {cid: verdict(r) for cid, r in oracle(release, cases, HERE).items()}


def write_verdicts(release: str, verdicts: dict[str, dict], where: Path = HERE / "verdicts",
                   source: str = "vllm-oracle --gpu-defaults (tests/conformance/run_oracle.py): "
                                 "vLLM's own parser and config validators") -> None:
    where.mkdir(parents=True, exist_ok=True)
    path = where / f"{release}.json"
    doc = {
        "release": release,
        "source": source,
        "cases": dict(sorted(verdicts.items())),
    }
    lines = ["{", f' "release": {json.dumps(release)},', f' "source": {json.dumps(doc["source"])},', ' "cases": {']
    items = list(doc["cases"].items())
    for i, (cid, v) in enumerate(items):
        lines.append(f"  {json.dumps(cid)}: {json.dumps(v, ensure_ascii=False)}" + ("," if i < len(items) - 1 else ""))
    lines += [" }", "}", ""]
    path.write_text("\n".join(lines))


def main() -> int:
    if sys.argv[1:2] == ["replayssm"]:
        return replayssm_main(sys.argv[2:])
    if sys.argv[1:2] == ["releases"]:
        return releases_main(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("releases", nargs="*")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="releases checked at once (each is one oracle process)")
    ap.add_argument("--only", help="re-run only the cases whose id starts with one of these comma-separated "
                    "prefixes, merging them into the existing verdicts")
    args = ap.parse_args()
    odd = [r for r in args.releases if not re.fullmatch(r"\d+\.\d+\.\d+(?:\.post\d+|\.\d+)?", r)]
    if odd:
        ap.error(f"not a vLLM release: {', '.join(odd)}")
    cases = load_cases()
    if args.only:
        prefixes = tuple(p for p in args.only.split(",") if p)
        cases = {cid: c for cid, c in cases.items() if cid.startswith(prefixes)}
    todo, missing = _ready(args.releases or list(RELEASES))

    def one(release: str) -> None:
        verdicts = run_release(release, cases)
        if args.only:
            path = HERE / "verdicts" / f"{release}.json"
            old = json.loads(path.read_text())["cases"] if path.exists() else {}
            verdicts = {**old, **verdicts}
        # Cases deleted from cases/ leave the golden file too.
        known = load_cases()
        write_verdicts(release, {cid: v for cid, v in verdicts.items() if cid in known})

    _each(todo, one, args.jobs)
    return 1 if missing else 0


def _ready(wanted: list[str]) -> tuple[list[str], list[str]]:
    ready = ready_releases()
    missing = [r for r in wanted if r not in ready]
    if missing:
        print(f"not ready in the oracle (skipped): {', '.join(missing)}", file=sys.stderr)
    return [r for r in wanted if r in ready], missing


def _each(items, fn, jobs: int) -> None:
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for fut in [pool.submit(fn, item) for item in items]:
            fut.result()


# -- the every-minor suite (releases/) ------------------------------------------

SUITE = HERE / "releases"
TOOLS = REPO / "tools" / "knowledge"


def minor_releases() -> list[str]:
    """The newest release servelint knows of each minor, oldest first."""
    sys.path.insert(0, str(REPO / "server"))
    from servelint import knowledge
    from servelint.knowledge.versions import version_key

    newest: dict[tuple, str] = {}
    for v in knowledge.RELEASES:
        newest[version_key(v)[:2]] = v  # RELEASES is ascending
    return [newest[k] for k in sorted(newest)]


def releases_main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="run_oracle.py releases")
    ap.add_argument("releases", nargs="*", help="default: the newest release of each minor")
    ap.add_argument("--keep", action="store_true", help="keep releases unpacked in servelint's release home")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(TOOLS))
    import provision

    cases = {}
    for path in sorted((SUITE / "cases").glob("*.json")):
        for cid, case in json.loads(path.read_text())["cases"].items():
            cases[cid] = case if isinstance(case, dict) else {"argv": case}
    for release in args.releases or minor_releases():
        rel = provision.ensure(release)
        with tempfile.TemporaryDirectory(prefix=f"conformance-{release}-") as tmp:
            cases_file, out_file = Path(tmp) / "cases.json", Path(tmp) / "results.json"
            cases_file.write_text(json.dumps(cases))
            started = time.monotonic()
            env = rel.env()
            proc = subprocess.run([str(provision.VPY), str(TOOLS / "vllm_oracle" / "parse_oracle.py"),
                                   str(cases_file), str(out_file)], cwd=HERE, env=env, capture_output=True, text=True)
            if proc.returncode != 0 or not out_file.exists():
                raise RuntimeError(f"parse oracle {release} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
            results = json.loads(out_file.read_text())
        print(f"[{release}] {len(results)} cases in {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
        verdicts = {}
        for cid, r in results.items():
            v = verdict(r)
            if v["verdict"] == "error" and v.get("stage") == "entry point":
                v["stage"] = "serve" if cases[cid].get("entry", "serve") == "serve" else "api_server"
            verdicts[cid] = v
        write_verdicts(release, verdicts, SUITE / "verdicts",
                       "tools/knowledge/vllm_oracle/parse_oracle.py (tests/conformance/run_oracle.py releases): "
                       "the release's own entry point, up to the start of the server")
        if not args.keep:
            provision.remove(rel)
    return 0


# -- the ReplaySSM family's suite (replayssm/, owned by its own tests) ----------

# The fields of an oracle result that replayssm/verdicts-*.json keep.
_REPLAYSSM_FIELDS = ("result", "stage", "exception_class", "message", "message_source", "raised_at",
                     "validation_title", "summary")


def replayssm_main(argv: list[str]) -> int:
    """``run_oracle.py replayssm [--releases R ...]``: the verdicts read by
    tests/rules/test_replayssm_conformance.py, for vLLM's CPU defaults
    (``verdicts-<release>.json``) and with ``--gpu-defaults``
    (``verdicts-<release>-gpu.json``), run from replayssm/ so its
    ``--config yaml/...`` paths resolve."""
    ap = argparse.ArgumentParser(prog="run_oracle.py replayssm")
    ap.add_argument("--releases", nargs="+", default=list(RELEASES))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    suite = HERE / "replayssm"
    raw = json.loads((suite / "cases.json").read_text())
    cases = {cid: c if isinstance(c, dict) else {"argv": c} for cid, c in raw.items()}
    # Model directories the oracle does not bundle (kimi-linear) are passed by path.
    bundled = {p.name for p in (ORACLE_DIR / "models").iterdir() if p.is_dir()}
    local = {p.name for p in (HERE / "models").iterdir() if p.is_dir()} - bundled
    for c in cases.values():
        c["argv"] = [str(HERE / "models" / a) if a in local else a for a in c["argv"]]
    todo, missing = _ready(args.releases)

    def one(job: tuple[str, bool]) -> None:
        release, gpu = job
        results = oracle(release, cases, suite, gpu=gpu)
        doc = {
            "generated_by": "tests/conformance/run_oracle.py (vllm-oracle oracle.sh --json)",
            "gpu_defaults": gpu,
            "vllm_version": release,
            "verdicts": {cid: {k: r[k] for k in _REPLAYSSM_FIELDS if k in r} for cid, r in results.items()},
        }
        out = suite / f"verdicts-{release}{'-gpu' if gpu else ''}.json"
        out.write_text(json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n")

    _each([(r, gpu) for r in todo for gpu in (False, True)], one, args.jobs)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
