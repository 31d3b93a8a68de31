"""Put one vLLM release where ``dump_release.py`` can run it, and take it away.

Releases 0.25.0 and later are run from the vllm-oracle tool's home
(``$VLLM_ORACLE_HOME``, set up by the tool's ``setup.sh``; read only here).
Every other release gets its own directory in servelint's release home
(``$SERVELINT_RELEASES_HOME``, default ``~/.cache/servelint-old-releases``):

    wheels/            a wheel while it is being unpacked (then deleted)
    releases/<ver>/    the unpacked wheel (``pip install --no-deps --target``),
                       with .servelint-ready (wheel name, sha256)
    extra/<ver>/       modules this release imports that the base venv lacks
    overrides/<key>/   older versions of base-venv packages (release-env.txt)
    vllm-cache/<ver>/  vLLM's VLLM_CACHE_ROOT

Both run on the oracle's base venv (Python 3.11, torch 2.13.0+cpu), which
is never written to.  ``release-env.txt`` says, per release range, which
packages to replace with older versions and which modules to treat as not
installed; ``remove()`` deletes an unpacked release once it is dumped
(0.3-0.8 GB each).
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def _oracle_dir() -> Path:
    """$VLLM_ORACLE_DIR, else ``shared/tools/vllm-oracle`` beside the
    checkout or beside one of its parents (a worktree sits deeper)."""
    if os.environ.get("VLLM_ORACLE_DIR"):
        return Path(os.environ["VLLM_ORACLE_DIR"])
    for parent in REPO.parents:
        candidate = parent / "shared" / "tools" / "vllm-oracle"
        if candidate.is_dir():
            return candidate
    return REPO.parent / "shared" / "tools" / "vllm-oracle"


ORACLE_DIR = _oracle_dir()
ORACLE_HOME = Path(os.environ.get("VLLM_ORACLE_HOME", Path.home() / ".cache" / "vllm-oracle"))
HOME = Path(os.environ.get("SERVELINT_RELEASES_HOME", Path.home() / ".cache" / "servelint-old-releases"))
# Raw dumps and the side directory of model-import dependencies.
WORK = Path(os.environ.get("SERVELINT_KNOWLEDGE_WORK", Path.home() / ".cache" / "servelint-knowledge"))
VPY = ORACLE_HOME / "venv" / "bin" / "python"
PLUGIN = ORACLE_DIR / "plugin" / "cpu-platform-plugin"

# import name -> distribution name, where they differ
MODULE_TO_DIST = {
    "yaml": "pyyaml", "cv2": "opencv-python-headless", "PIL": "pillow",
    "zmq": "pyzmq", "cpuinfo": "py-cpuinfo", "google": "protobuf",
    "pythonjsonlogger": "python-json-logger", "openai_harmony": "openai-harmony",
    "model_hosting_container_standards": "model-hosting-container-standards",
    "sklearn": "scikit-learn", "jwt": "pyjwt", "dateutil": "python-dateutil",
    "lmformatenforcer": "lm-format-enforcer", "prometheus_fastapi_instrumentator":
    "prometheus-fastapi-instrumentator", "mistral_common": "mistral-common",
    "compressed_tensors": "compressed-tensors", "attr": "attrs", "rpds": "rpds-py",
    "jsonschema_specifications": "jsonschema-specifications", "sentencepiece": "sentencepiece",
}


def log(msg: str) -> None:
    print(f"[provision] {msg}", file=sys.stderr, flush=True)


def version_key(v: str) -> tuple:
    return tuple(int(x) if x.isdigit() else x for x in re.split(r"[.+]", v.replace("post", "")))


@dataclass
class Release:
    """Where one release lives and how to run it."""

    version: str
    root: Path  # the unpacked wheel
    extra: Path
    own: bool  # in servelint's home (removable), not the oracle's
    overrides: list[Path] = field(default_factory=list)
    hide: list[str] = field(default_factory=list)
    ready: dict = field(default_factory=dict)
    archdeps: list[Path] = field(default_factory=list)
    # The oracle's own extra/<ver> for its releases: on the path, never
    # written (``extra`` is always in servelint's home).
    shared_extra: Path | None = None

    @property
    def honours_target_device(self) -> bool:
        path = self.root / "vllm" / "platforms" / "__init__.py"
        return path.exists() and "VLLM_TARGET_DEVICE" in path.read_text(errors="replace")

    def pythonpath(self) -> str:
        parts = [*self.overrides, self.root, self.extra]
        if self.shared_extra is not None:
            parts.append(self.shared_extra)
        parts.extend(self.archdeps)
        if not self.honours_target_device:
            # Releases that detect the CPU only from a "+cpu" version get the
            # oracle's 5-line platform plugin returning vLLM's CpuPlatform
            # (releases without platform plugins ignore it).
            if not PLUGIN.is_dir():
                # A missing directory on PYTHONPATH is skipped silently, and
                # the release then fails later with "Failed to infer device type".
                sys.exit(f"{self.version}: no CPU platform plugin at {PLUGIN} (set VLLM_ORACLE_DIR)")
            parts.append(PLUGIN)
        return ":".join(str(p) for p in parts)

    def env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        cache_root = HOME / "vllm-cache" / self.version  # never the oracle home
        env.update({
            "PYTHONPATH": self.pythonpath(),
            "PYTHONNOUSERSITE": "1",
            "VLLM_TARGET_DEVICE": "cpu",
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
            "VLLM_NO_USAGE_STATS": "1",
            "VLLM_LOGGING_LEVEL": "ERROR",
            "VLLM_CACHE_ROOT": str(cache_root),
            "PYTHONPYCACHEPREFIX": str(HOME / "pycache"),
            "SERVELINT_DUMP_HIDE": ",".join(self.hide),
            "SERVELINT_TOOLS": str(HERE),
        })
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        return env

    def run(self, args: list[str], **kw) -> subprocess.CompletedProcess:
        return subprocess.run([str(VPY), *args], env=self.env(), cwd="/tmp", **kw)


# --- release-env.txt -------------------------------------------------------------
def _in_range(version: str, spec: str) -> bool:
    lo, _, hi = spec.partition("..")
    key = version_key(version)
    return (not lo or key >= version_key(lo)) and (not hi or key <= version_key(hi))


def release_env(version: str) -> tuple[list[str], list[str]]:
    """(override requirements, hidden modules) for ``version``."""
    pins, hide = [], []
    for line in (HERE / "release-env.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        spec, kind, *values = line.split()
        if not _in_range(version, spec):
            continue
        if kind == "pip":
            pins.extend(values)
        elif kind == "hide":
            hide.extend(v for value in values for v in value.split(","))
        else:
            sys.exit(f"release-env.txt: unknown kind {kind!r}")
    return pins, hide


def _pip(args: list[str]) -> None:
    subprocess.run([str(VPY), "-m", "pip", "--disable-pip-version-check", *args],
                   check=True, stdout=sys.stderr, env={**os.environ, "PYTHONNOUSERSITE": "1"})


def _overrides(pins: list[str]) -> list[Path]:
    if not pins:
        return []
    key = hashlib.sha256("\n".join(sorted(pins)).encode()).hexdigest()[:12]
    target = HOME / "overrides" / key
    if not (target / ".stamp").exists():
        log(f"installing overrides {' '.join(pins)} into {target}")
        shutil.rmtree(target, ignore_errors=True)
        _pip(["install", "--no-deps", "--no-compile", "--progress-bar", "off", "--target", str(target), *pins])
        (target / ".stamp").write_text("\n".join(sorted(pins)))
    return [target]


def _requirement_lines(path: Path) -> list[str]:
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return [line for line in lines if line]


def archdeps() -> list[Path]:
    """The modules model files import that the base venv leaves out
    (arch-requirements.txt), installed --no-deps once into the work
    directory; after the release's own directories on PYTHONPATH."""
    reqs = _requirement_lines(HERE / "arch-requirements.txt")
    target = WORK / "archdeps"
    want = hashlib.sha256("\n".join(reqs).encode()).hexdigest()
    stamp = target / ".stamp"
    if not (stamp.exists() and stamp.read_text() == want):
        log(f"installing {', '.join(reqs)} into {target}")
        _pip(["install", "--no-deps", "--no-compile", "--progress-bar", "off", "--upgrade",
              "--target", str(target), *reqs])
        stamp.write_text(want)
    return [target]


# --- provisioning ---------------------------------------------------------------
def _read_stamp(path: Path) -> dict:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)


def locate(version: str) -> Release | None:
    """The release if it is unpacked already (oracle home first)."""
    pins, hide = release_env(version)
    oracle = ORACLE_HOME / "releases" / version
    if (oracle / ".vllm-oracle-ready").exists():
        return Release(version, oracle, HOME / "extra" / version, False,
                       _overrides(pins), hide, _read_stamp(oracle / ".vllm-oracle-ready"), archdeps(),
                       ORACLE_HOME / "extra" / version)
    own = HOME / "releases" / version
    if (own / ".servelint-ready").exists():
        return Release(version, own, HOME / "extra" / version, True,
                       _overrides(pins), hide, _read_stamp(own / ".servelint-ready"), archdeps())
    return None


def ensure(version: str) -> Release:
    """Download and unpack ``version`` unless it is there; make its CLI
    import (installing the modules it misses into extra/<ver>)."""
    rel = locate(version) or _unpack(version)
    stamp = rel.extra / ".servelint-imports"
    key = hashlib.sha256(rel.pythonpath().encode() + ",".join(rel.hide).encode()).hexdigest()
    if not (stamp.exists() and stamp.read_text() == key):
        fix_imports(rel)
        rel.extra.mkdir(parents=True, exist_ok=True)
        stamp.write_text(key)
    return rel


def _unpack(version: str) -> Release:
    if not VPY.exists():
        sys.exit(f"no base venv at {VPY}: set up the vllm-oracle tool first ({ORACLE_DIR}/setup.sh)")
    wheels = HOME / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    for old in wheels.glob(f"vllm-{version}-*.whl"):
        old.unlink()
    log(f"{version}: downloading the wheel")
    _pip(["download", "--no-deps", "--only-binary=:all:", "--no-cache-dir", "--progress-bar", "off",
          "-d", str(wheels), f"vllm=={version}"])
    whl = next(iter(sorted(wheels.glob(f"vllm-{version}-*.whl"))), None)
    if whl is None:
        sys.exit(f"pip download produced no vllm-{version}-*.whl")
    sha = hashlib.sha256(whl.read_bytes()).hexdigest()
    root = HOME / "releases" / version
    tmp = HOME / "releases" / f".tmp-{version}"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(root, ignore_errors=True)
    log(f"{version}: unpacking {whl.name}")
    _pip(["install", "--no-deps", "--no-compile", "--progress-bar", "off", "--target", str(tmp), str(whl)])
    whl.unlink()
    tmp.rename(root)
    (root / ".servelint-ready").write_text(f"wheel={whl.name}\nsha256={sha}\n")
    rel = locate(version)
    assert rel is not None
    return rel


IMPORT_CHECK = r"""
import importlib, os, sys
sys.path.insert(0, os.environ["SERVELINT_TOOLS"])
from shims import install_shims
install_shims()

def modules():
    import vllm
    mods = ["vllm.engine.arg_utils", "vllm.entrypoints.openai.api_server"]
    site = os.path.dirname(os.path.dirname(vllm.__file__))
    for d in os.listdir(site):
        if d.startswith("vllm-") and d.endswith(".dist-info"):
            for line in open(os.path.join(site, d, "entry_points.txt")):
                if line.replace(" ", "").startswith("vllm="):
                    mods.append(line.split("=", 1)[1].split(":")[0].strip())
    # A model module too: model files import what the CLI does not
    # (gguf through the weight loader in 0.7.x).
    return mods + ["vllm.model_executor.models", "vllm.model_executor.models.llama"]

def missing(e):
    if e.name and not e.name.startswith("vllm"):
        print("MISSING", e.name)
        sys.exit(3)

try:
    for m in modules():
        importlib.import_module(m)
except ModuleNotFoundError as e:
    missing(e)
    raise
# The CLI's sub-commands, which its main() imports (0.8+): only a module
# they miss matters here; any other failure is the dumper's to report.
import pkgutil
try:
    cli = importlib.import_module("vllm.entrypoints.cli")
except ModuleNotFoundError as e:
    missing(e)
    cli = None
for info in pkgutil.walk_packages(cli.__path__, "vllm.entrypoints.cli.") if cli else ():
    try:
        importlib.import_module(info.name)
    except ModuleNotFoundError as e:
        missing(e)
    except Exception:
        pass
# Building the entry points' parsers imports more than their modules do
# (0.16.0's serve parser needs ijson): a module missing there counts too.
sys.path.insert(0, os.path.join(os.environ["SERVELINT_TOOLS"], "vllm_oracle"))
import re
from entrypoints import capture_entry_points
for found in capture_entry_points().values():
    m = re.search(r"ModuleNotFoundError: No module named '([^']+)'", found.get("error") or "")
    if m and not m.group(1).startswith("vllm"):
        print("MISSING", m.group(1))
        sys.exit(3)
print("OK")
"""


def requirements(rel: Release) -> dict[str, str]:
    """normalised distribution name -> the release's own requirement."""
    from packaging.requirements import Requirement

    out = {}
    metas = glob.glob(str(rel.root / "vllm-*.dist-info" / "METADATA"))
    for line in open(metas[0], encoding="utf-8"):
        if line.startswith("Requires-Dist:"):
            req = Requirement(line.split(":", 1)[1].strip())
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue
            out[_norm(req.name)] = str(req).split(";")[0].strip()
    return out


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def fix_imports(rel: Release, rounds: int = 25) -> list[str]:
    """Install each module the release's CLI reports missing, with the
    release's own specifier (newest match), until it imports."""
    installed = []
    reqs = requirements(rel)
    for _ in range(rounds):
        p = rel.run(["-c", IMPORT_CHECK], capture_output=True, text=True)
        if p.returncode == 0:
            if installed:
                log(f"{rel.version}: installed into {rel.extra}: {', '.join(installed)}")
            return installed
        m = re.search(r"^MISSING (\S+)", p.stdout, re.M)
        # A package that checks its optional dependency itself
        # (pydantic_extra_types: 'install it with "pip install pycountry"').
        m = m or re.search(r'install it with "pip install ([\w.-]+)"', p.stderr)
        if not m:
            sys.exit(f"{rel.version}: the CLI does not import:\n{p.stderr[-3000:]}")
        module = m.group(1).split(".")[0]
        dist = MODULE_TO_DIST.get(module, module.replace("_", "-"))
        spec = reqs.get(_norm(dist), dist)
        if spec in installed:
            sys.exit(f"{rel.version}: {spec} installed but {module} still missing")
        _pip(["install", "--no-deps", "--no-compile", "--progress-bar", "off", "--upgrade",
              "--target", str(rel.extra), spec])
        installed.append(spec)
    sys.exit(f"{rel.version}: still missing modules after {rounds} installs")


def sdist_python() -> Path:
    """A Python that can prepare a vLLM sdist's metadata (setup.py imports
    torch and setuptools-scm): a venv in the release home that sees the
    base venv's packages (read only) plus setuptools-scm of its own."""
    venv = HOME / "sdist-venv"
    py = venv / "bin" / "python"
    stamp = venv / ".servelint-ready"
    if not stamp.exists():
        log(f"creating {venv} (to read the releases' source distributions)")
        subprocess.run([str(VPY), "-m", "venv", "--clear", str(venv)], check=True)
        site = subprocess.run([str(VPY), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                              check=True, capture_output=True, text=True).stdout.strip()
        own = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
        Path(own, "zz-oracle-base.pth").write_text(site + "\n")
        subprocess.run([str(py), "-m", "pip", "install", "--quiet", "setuptools>=77", "setuptools-scm",
                        "wheel", "packaging", "jinja2"], check=True, stdout=sys.stderr)
        stamp.write_text("ok\n")
    return py


def remove(rel: Release) -> None:
    """Delete an unpacked release of servelint's own home (never the oracle's)."""
    if rel.own:
        # The wheel's name and hash outlive the unpacked release: the
        # generator records them as the source of the release's tables.
        (WORK / "raw").mkdir(parents=True, exist_ok=True)
        (WORK / "raw" / f"wheel-{rel.version}.json").write_text(json.dumps(rel.ready))
        shutil.rmtree(rel.root, ignore_errors=True)
        log(f"{rel.version}: removed {rel.root}")


if __name__ == "__main__":
    for v in sys.argv[1:]:
        r = ensure(v)
        print(v, r.root, r.pythonpath())
