#!/usr/bin/env python
"""Ask one installed vLLM release about itself; write the answers as JSON.

Run by ``generate.py`` inside the release's environment (the vllm-oracle
venv with ``releases/<ver>`` on ``PYTHONPATH``), never imported by servelint:

    python dump_release.py OUT.json

It records three things the oracle's schema dump does not:

* provenance: ``vllm.__version__``, the commit id baked into the wheel, the
  platform class vLLM selected, torch's version;
* what each boolean option string really stores: every string of every
  zero-argument option is parsed by the real ``vllm serve`` parser, so the
  "negative" spellings (``--no-x``, ``--disable-x``...) are observed, not
  guessed from their names;
* ``_ModelInfo`` for every key of the model registry, computed in-process
  with the same call vLLM's inspection subprocess makes
  (``_ModelInfo.from_model_cls(load_model_cls())``).  vLLM runs that in a
  fresh subprocess per class (~10 s each) only to keep CUDA uninitialised in
  the parent; on a CPU-only machine there is no CUDA to protect, so one
  process does all ~400 classes in well under a minute.

Third-party shims (applied before anything is imported, documented in
README.md): the PyPI builds of torchvision/torchaudio are CUDA builds whose
native extensions cannot load against torch+cpu.  Model modules import them
only for image/audio preprocessing, never for the class attributes
``_ModelInfo`` reads, so their native-op registration is skipped.  No vLLM
code is replaced.
"""

from __future__ import annotations

import dataclasses
import importlib.abc
import importlib.machinery
import json
import os
import sys
import time
import traceback
import types

os.environ.setdefault("VLLM_TARGET_DEVICE", "cpu")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("VLLM_NO_USAGE_STATS", "1")
os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")


# --- third-party shims ------------------------------------------------------
class _AfterImport(importlib.abc.MetaPathFinder):
    """Run a callback on a module right after it has been executed."""

    def __init__(self, hooks: dict[str, callable]):
        self.hooks = hooks

    def find_spec(self, name, path=None, target=None):
        if name not in self.hooks:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return None
        loader, hook = spec.loader, self.hooks[name]

        class _Loader(importlib.abc.Loader):
            def create_module(self, spec):
                return loader.create_module(spec)

            def exec_module(self, module):
                loader.exec_module(module)
                hook(module)

        spec.loader = _Loader()
        return spec


def _install_shims() -> list[str]:
    applied = []
    # torchvision registers fake kernels for its native ops at import; with
    # the ops missing (CUDA build on torch+cpu) that raises.  Nothing in a
    # model class definition uses those ops.
    sys.modules.setdefault(
        "torchvision._meta_registrations", types.ModuleType("torchvision._meta_registrations")
    )
    applied.append("torchvision._meta_registrations: empty module")

    def _no_native_lib(mod):
        mod._load_lib = lambda *_a, **_k: False

    sys.meta_path.insert(0, _AfterImport({"torchaudio._extension.utils": _no_native_lib}))
    applied.append("torchaudio._extension.utils._load_lib: returns False")
    return applied


# --- provenance -------------------------------------------------------------
def provenance(shims: list[str]) -> dict:
    import vllm

    out = {"vllm_version": getattr(vllm, "__version__", None), "commit": None}
    try:
        from vllm import _version

        out["commit"] = getattr(_version, "__commit_id__", None) or getattr(_version, "commit_id", None)
    except Exception:
        pass
    try:
        from vllm import platforms

        out["platform"] = type(platforms.current_platform).__name__
    except Exception as e:
        out["platform"] = f"<error {type(e).__name__}: {e}>"
    try:
        import torch

        out["torch"] = torch.__version__
    except Exception:
        out["torch"] = None
    out["python"] = sys.version.split()[0]
    out["shims"] = shims
    return out


# --- parser: what each zero-argument string stores ----------------------------
def build_serve_parser():
    """Build the parser the way ``vllm/entrypoints/cli/main.py`` does."""
    try:
        from vllm.utils.argparse_utils import FlexibleArgumentParser
    except ImportError:  # releases that kept it in vllm.utils
        from vllm.utils import FlexibleArgumentParser  # type: ignore
    import vllm.entrypoints.cli.serve as serve_mod

    parser = FlexibleArgumentParser(description="vLLM CLI")
    subparsers = parser.add_subparsers(required=False, dest="subparser")
    serve = None
    for cmd in serve_mod.cmd_init():
        sp = cmd.subparser_init(subparsers)
        if cmd.name == "serve":
            serve = sp
    assert serve is not None, "no serve sub-command"
    return parser, serve


def parser_facts() -> dict:
    parser, serve = build_serve_parser()
    strings: dict[str, list[str]] = {}
    for s, action in serve._option_string_actions.items():
        strings.setdefault(action.dest, []).append(s)
    stores: dict[str, object] = {}
    errors: dict[str, str] = {}
    for action in serve._actions:
        if action.nargs != 0 or action.dest == "help":
            continue
        for s in strings.get(action.dest, []):
            try:
                ns = parser.parse_args(["serve", s])
                stores[s] = getattr(ns, action.dest)
            except BaseException as e:  # argparse exits; record and go on
                errors[s] = f"{type(e).__name__}: {e}"
    return {
        "strings_by_dest": {k: sorted(v) for k, v in strings.items()},
        "zero_arg_stores": stores,
        "zero_arg_errors": errors,
    }


# --- architectures ------------------------------------------------------------
def _jsonable(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple, set, frozenset)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    value = getattr(v, "value", None)  # enums
    if isinstance(value, (str, int)):
        return value
    name = getattr(v, "name", None)
    if isinstance(name, str):
        return name
    return repr(v)


def _interface_predicates():
    """Single-argument predicates ``supports_*``/``is_*``/``has_*`` of vLLM's
    interface modules, to record capabilities ``_ModelInfo`` leaves out."""
    preds = {}
    interface_classes = set()
    for modname in (
        "vllm.model_executor.models.interfaces",
        "vllm.model_executor.models.interfaces_base",
    ):
        try:
            mod = __import__(modname, fromlist=["_"])
        except Exception:
            continue
        for name, obj in vars(mod).items():
            if isinstance(obj, type) and obj.__module__ == modname:
                interface_classes.add(obj)
            if (
                isinstance(obj, types.FunctionType)
                and obj.__module__ == modname
                and name.startswith(("supports_", "is_", "has_"))
                and obj.__code__.co_argcount == 1
                and obj.__code__.co_varnames[:1] == ("model",)
            ):
                preds[name] = obj
    return preds, interface_classes


class _FakePlatform:
    """Stands in for ``current_platform`` when *evaluating* the platform
    tests of a registry module's source (never used to import anything)."""

    def __init__(self, device: str):
        self.device_type = device
        self._is = {
            "is_cuda": device == "cuda",
            "is_cuda_alike": device in ("cuda", "rocm"),
            "is_rocm": device == "rocm",
            "is_cpu": device == "cpu",
            "is_xpu": device == "xpu",
            "is_tpu": device == "tpu",
        }

    def __getattr__(self, name):
        if name.startswith("is_"):
            return lambda *a, **k: self._is.get(name, False)
        raise AttributeError(name)


def _platform_dispatch(module_name: str | None, class_name: str | None) -> dict | None:
    """For a registry module that picks its class per platform (the
    hardware-isolated ``vllm.models.<name>`` packages, e.g. ``if
    current_platform.is_rocm(): from .amd... elif ...is_cpu(): from .cpu...
    else: from .nvidia...``), find which module ``class_name`` comes from on
    CPU and on CUDA.  The source is read and only its ``if`` tests are
    evaluated (against a stand-in platform): the CUDA classes cannot be
    imported here, they need vLLM's compiled CUDA ops."""
    import ast
    import importlib.util

    if not module_name or not class_name:
        return None
    try:
        spec = importlib.util.find_spec(module_name)
        origin = spec.origin if spec else None
        if not origin or not origin.endswith("__init__.py"):
            return None
        with open(origin) as f:
            tree = ast.parse(f.read())
    except Exception:
        return None
    if "current_platform" not in ast.unparse(tree):
        return None

    def source(stmt: ast.ImportFrom, alias: ast.alias) -> str:
        if stmt.level == 0:
            return f"{stmt.module}.{alias.name}"
        base = module_name.rsplit(".", stmt.level - 1)[0] if stmt.level > 1 else module_name
        return f"{base}.{stmt.module}.{alias.name}" if stmt.module else f"{base}.{alias.name}"

    def run(stmts, env) -> str | None:
        found = None
        for st in stmts:
            if isinstance(st, ast.ImportFrom):
                for alias in st.names:
                    if (alias.asname or alias.name) == class_name:
                        found = source(st, alias)
            elif isinstance(st, ast.If):
                try:
                    taken = eval(compile(ast.Expression(st.test), origin, "eval"), dict(env))
                except Exception:
                    return None  # a test we cannot evaluate: say nothing
                sub = run(st.body if taken else st.orelse, env)
                found = sub or found
            elif isinstance(st, ast.Try):
                found = run(st.body, env) or found
        return found

    out = {}
    for device in ("cpu", "cuda"):
        env = {"current_platform": _FakePlatform(device), "TYPE_CHECKING": False}
        out[device] = run(tree.body, env)
    return out if out["cpu"] and out["cuda"] else None


def architecture_facts() -> dict:
    from vllm.model_executor.models import registry as reg

    info_fields = [f.name for f in dataclasses.fields(reg._ModelInfo)]
    groups: dict[str, list[str]] = {}
    for gname, table in vars(reg).items():
        if gname.startswith("_") and gname.endswith("_MODELS") and isinstance(table, dict):
            for arch in table:
                groups.setdefault(arch, []).append(gname)
    try:
        from vllm.model_executor.models.config import MODELS_CONFIG_MAP
    except Exception:
        MODELS_CONFIG_MAP = {}
    preds, interface_classes = _interface_predicates()

    archs = {}
    t0 = time.time()
    for arch, entry in sorted(reg.ModelRegistry.models.items()):
        rec: dict = {
            "module": getattr(entry, "module_name", None),
            "class_name": getattr(entry, "class_name", None),
            "registry_groups": sorted(groups.get(arch, [])),
        }
        dispatch = _platform_dispatch(rec["module"], rec["class_name"])
        if dispatch and dispatch["cpu"] != dispatch["cuda"]:
            # These facts are the CPU class's; CUDA would load another class.
            rec["platform_dependent"] = dispatch
        hook = MODELS_CONFIG_MAP.get(arch)
        rec["models_config_map"] = getattr(hook, "__name__", None) if hook else None
        try:
            cls = entry.load_model_cls()
            info = reg._ModelInfo.from_model_cls(cls)
        except BaseException as e:
            rec["error"] = f"{type(e).__name__}: {e}"[:500]
            archs[arch] = rec
            continue
        rec["model_info"] = {k: _jsonable(v) for k, v in dataclasses.asdict(info).items()}
        rec["resolved_class"] = f"{cls.__module__}.{cls.__qualname__}"
        rec["interfaces_in_mro"] = sorted(
            {c.__name__ for c in cls.__mro__ if c in interface_classes}
        )
        extras = {}
        for name, pred in sorted(preds.items()):
            if name in info_fields:
                continue
            try:
                r = pred(cls)
            except Exception:
                continue
            if isinstance(r, bool):
                extras[name] = r
        rec["extras"] = extras
        archs[arch] = rec
    return {
        "model_info_fields": info_fields,
        "seconds": round(time.time() - t0, 1),
        "architectures": archs,
    }


def main() -> None:
    out_path = sys.argv[1]
    shims = _install_shims()
    result = {"provenance": provenance(shims)}
    result["parser"] = parser_facts()
    result["architectures"] = architecture_facts()
    with open(out_path, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True, default=repr)
    archs = result["architectures"]["architectures"]
    failed = sorted(a for a, r in archs.items() if "error" in r)
    print(
        f"wrote {out_path}: vllm {result['provenance']['vllm_version']}, "
        f"{len(archs)} architectures ({len(failed)} not importable), "
        f"{len(result['parser']['zero_arg_stores'])} zero-argument strings parsed",
        file=sys.stderr,
    )


if __name__ == "__main__":
    try:
        main()
    except Exception:
        traceback.print_exc()
        sys.exit(1)
