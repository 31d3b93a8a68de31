"""What vLLM's upstream container images run, release by release, read
from the Dockerfiles in each release's source distribution.

For every release the generator fetches the sdist from the package index
(``pip download --no-binary :all: vllm==X``; pip prepares its metadata with
``VLLM_TARGET_DEVICE=empty`` and ``--no-clean`` keeps the unpacked tree),
and reads:

* the Dockerfile each upstream repository is built from and its stage
  (``vllm/vllm-openai``: ``docker/Dockerfile`` or ``Dockerfile``, stage
  ``vllm-openai``; ``-cpu``: ``Dockerfile.cpu``; ``-rocm``:
  ``Dockerfile.rocm``; ``-xpu``: ``Dockerfile.xpu``; ``vllm/vllm-tpu``:
  ``Dockerfile.tpu``), and that stage's ``ENTRYPOINT``, following ``FROM``
  between stages and ``ARG`` defaults in stage names;
* which repositories the release's CI publishes (the repository names in
  ``.buildkite/``), so that a repository is listed only from the release on
  that publishes it.

An entry point is ``serve`` (``vllm serve``), ``api_server`` (``python3 -m
vllm.entrypoints.openai.api_server``) or null (anything else: a shell, a
wrapper script), with the Dockerfile line it comes from.  A release whose
sdist has no Dockerfile, or that has no sdist, is recorded as such; when the
releases on both sides agree, the table says so (``inferred``) and the
reader may use it.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# repository -> (Dockerfile names, highest first, and the stage to build).
REPOSITORIES = {
    "vllm/vllm-openai": (("docker/Dockerfile", "Dockerfile"), "vllm-openai"),
    "vllm/vllm-openai-cpu": (("docker/Dockerfile.cpu", "Dockerfile.cpu"), "vllm-openai"),
    "public.ecr.aws/q9t5s3a7/vllm-cpu-release-repo": (("docker/Dockerfile.cpu", "Dockerfile.cpu"), "vllm-openai"),
    "vllm/vllm-openai-rocm": (("docker/Dockerfile.rocm", "Dockerfile.rocm"), "vllm-openai"),
    "vllm/vllm-openai-xpu": (("docker/Dockerfile.xpu", "Dockerfile.xpu"), "vllm-openai"),
    "vllm/vllm-tpu": (("docker/Dockerfile.tpu", "Dockerfile.tpu"), None),
}
# Repositories the images of every release are published to whatever the
# CI scripts show (the release process retags the staging image).
ALWAYS = ("vllm/vllm-openai",)


def log(msg: str) -> None:
    print(f"[images] {msg}", file=sys.stderr, flush=True)


# --- the source distribution ----------------------------------------------------
def sdist_files(version: str) -> tuple[dict[str, str] | None, str]:
    """The Dockerfiles and CI scripts of ``version``'s sdist ({path: text}),
    or (None, why)."""
    import provision

    py = provision.sdist_python()
    with tempfile.TemporaryDirectory(prefix="servelint-sdist-") as tmp:
        env = {**os.environ, "TMPDIR": tmp, "VLLM_TARGET_DEVICE": "empty", "PYTHONNOUSERSITE": "1"}
        env.pop("PYTHONPATH", None)
        p = subprocess.run([str(py), "-m", "pip", "download", "--no-clean", "--no-deps", "--no-binary", ":all:",
                            "--no-build-isolation", "--progress-bar", "off", "-d", os.path.join(tmp, "out"),
                            f"vllm=={version}"], env=env, capture_output=True, text=True)
        roots = [d for d in Path(tmp).glob("pip-*/vllm*") if d.is_dir() and (d / "setup.py").exists()]
        if not roots:
            if f"vllm=={version}" in p.stderr and "No matching distribution" in p.stderr and \
                    "inconsistent version" not in p.stderr:
                return None, f"vllm {version} has no source distribution on the package index"
            return None, "the source distribution could not be unpacked: " + (p.stderr.strip().splitlines() or ["?"])[-1]
        root = roots[0]
        out = {}
        for path in list(root.glob("Dockerfile*")) + list(root.glob("docker/Dockerfile*")):
            out[str(path.relative_to(root))] = path.read_text(errors="replace")
        ci = []
        for path in sorted(root.glob(".buildkite/**/*")):
            if path.is_file() and path.suffix in (".yaml", ".yml", ".sh", ""):
                ci.append(path.read_text(errors="replace"))
        out[".buildkite"] = "\n".join(ci)
        shutil.rmtree(root, ignore_errors=True)
    return out, "sdist"


# --- Dockerfiles --------------------------------------------------------------------
def _logical_lines(text: str):
    """(line number, instruction line) with continuations joined."""
    buf, start = "", 0
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not buf and (not stripped or stripped.startswith("#")):
            continue
        if not buf:
            start = n
        if stripped.endswith("\\"):
            buf += stripped[:-1] + " "
            continue
        buf += stripped
        yield start, buf
        buf = ""
    if buf:
        yield start, buf


def _exec_form(value: str) -> list[str]:
    value = value.strip()
    if value.startswith("["):
        try:
            got = json.loads(value)
            if isinstance(got, list):
                return [str(x) for x in got]
        except ValueError:
            pass
    return ["/bin/sh", "-c", value]


def stages(text: str) -> dict:
    """{stage name: {"from": base, "entrypoint": [...]|None, "line": n}};
    unnamed stages are named by their position ("#0", "#1"...); ``"#last"``
    is the final stage."""
    args: dict[str, str] = {}
    out: dict[str, dict] = {}
    current = None
    for n, line in _logical_lines(text):
        word, _, rest = line.partition(" ")
        word = word.upper()
        if word == "ARG":
            name, eq, default = rest.strip().partition("=")
            if eq:
                args.setdefault(name.strip(), default.strip().strip('"'))
        elif word == "FROM":
            parts = rest.split()
            parts = [p for p in parts if not p.startswith("--")]
            base = parts[0] if parts else ""
            base = re.sub(r"\$\{?(\w+)\}?", lambda m: args.get(m.group(1), m.group(0)), base)
            name = parts[2] if len(parts) >= 3 and parts[1].lower() == "as" else f"#{len(out)}"
            current = {"from": base, "entrypoint": None, "line": n, "name": name}
            out[name] = current
        elif word == "ENTRYPOINT" and current is not None:
            current["entrypoint"] = _exec_form(rest)
            current["entrypoint_line"] = n
    if current is not None:
        out["#last"] = current
    return out


def entrypoint(text: str, stage: str | None) -> tuple[list[str] | None, int | None]:
    """The ENTRYPOINT an image built from ``stage`` (None: the last stage)
    runs, following FROM to earlier stages; (None, None) if none is set."""
    table = stages(text)
    node = table.get(stage or "#last")
    seen = set()
    while node is not None and node["name"] not in seen:
        seen.add(node["name"])
        if node["entrypoint"] is not None:
            return node["entrypoint"], node.get("entrypoint_line")
        node = table.get(node["from"])
    return None, None


def classify(argv: list[str] | None) -> str | None:
    """``serve``, ``api_server`` or None for what an ENTRYPOINT runs."""
    if not argv:
        return None
    words = [os.path.basename(w) for w in argv]
    if words[:2] == ["vllm", "serve"]:
        return "serve"
    if len(words) >= 3 and re.fullmatch(r"python[\d.]*", words[0]) and words[1] == "-m":
        if argv[2] == "vllm.entrypoints.openai.api_server":
            return "api_server"
    return None


def release_images(files: dict[str, str]) -> dict:
    """{repository: {"entry", "entrypoint", "dockerfile", "line"}} of one release."""
    ci = files.get(".buildkite", "")
    out = {}
    for repo, (names, stage) in REPOSITORIES.items():
        if repo not in ALWAYS and repo not in ci:
            continue
        dockerfile = next((n for n in names if n in files), None)
        if dockerfile is None:
            continue
        argv, line = entrypoint(files[dockerfile], stage)
        if argv is None and stage is not None and stage not in stages(files[dockerfile]):
            continue
        out[repo] = {"entry": classify(argv), "entrypoint": argv, "dockerfile": dockerfile,
                     "stage": stage, "line": line}
    return out


def read_release(version: str) -> dict:
    """One release's images (cached in the work directory: reading an
    sdist takes a download and a metadata build)."""
    import provision

    cache = provision.WORK / "images" / f"{version}.json"
    if cache.exists():
        return json.loads(cache.read_text())
    files, how = sdist_files(version)
    if files is None:
        got = {"unknown": how}
    else:
        images = release_images(files)
        got = {"images": images} if images else {"unknown": f"the {version} source distribution has no Dockerfile"}
    log(f"{version}: " + (", ".join(f"{r} -> {i['entry']}" for r, i in got["images"].items())
                          if "images" in got else got["unknown"]))
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(got, indent=1))
    return got


def update(table: dict | None, fresh: list[str], releases: list[str]) -> dict:
    """The images table with ``fresh`` releases (re)read from their sdists,
    every other release kept, gaps between agreeing neighbours marked."""
    from generate import version_key

    table = dict(table or {})
    per = dict(table.get("releases", {}))
    for v in fresh:
        per[v] = read_release(v)
    per = {v: per[v] for v in sorted(per, key=version_key) if v in releases}
    order = [v for v in releases if v in per]
    # A release whose sdist says nothing, between two that agree on a
    # repository, most likely ran the same (recorded as inferred).
    for i, v in enumerate(order):
        got = per[v]
        if "images" in got:
            continue
        got.pop("inferred", None)
        before = next((per[w]["images"] for w in reversed(order[:i]) if "images" in per[w]), None)
        after_v = next((w for w in order[i + 1:] if "images" in per[w]), None)
        before_v = next((w for w in reversed(order[:i]) if "images" in per[w]), None)
        if before is None or after_v is None:
            continue
        after = per[after_v]["images"]
        agreed = {r: {"entry": before[r]["entry"], "entrypoint": before[r]["entrypoint"]}
                  for r in before if r in after and before[r]["entrypoint"] == after[r]["entrypoint"]}
        if agreed:
            got["inferred"] = {"from": [before_v, after_v], "images": agreed}
    return {
        "source": {"what": "ENTRYPOINT of each upstream image per release, from the Dockerfiles in the "
                           "release's source distribution (tools/knowledge/images.py)",
                   "generated": _dt.date.today().isoformat(),
                   "repositories": {r: {"dockerfiles": list(n), "stage": s} for r, (n, s) in REPOSITORIES.items()}},
        "releases": per,
    }


if __name__ == "__main__":
    for v in sys.argv[1:]:
        print(v, json.dumps(read_release(v)))
