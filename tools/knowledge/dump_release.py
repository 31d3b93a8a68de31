#!/usr/bin/env python
"""Ask one installed vLLM release about itself; write the answers as JSON.

Run by ``generate.py`` inside the release's environment (a Python with
torch, the release's unpacked wheel first on ``PYTHONPATH``), never
imported by servelint:

    python dump_release.py OUT.json

It records, for any release from 0.6.0 on:

* provenance: ``vllm.__version__``, the commit id baked into the wheel, the
  platform class vLLM selected, torch's version;
* every **entry point** the release has, with the parser *that entry point
  builds*: ``vllm serve`` (the ``vllm`` console script named in the wheel's
  ``entry_points.txt``: ``vllm.scripts:main`` in old releases,
  ``vllm.entrypoints.cli.main:main`` later), ``python -m
  vllm.entrypoints.openai.api_server`` and the old demo server ``python -m
  vllm.entrypoints.api_server``.  Each is built by running the release's own
  code (the console script's function, or the module's ``if __name__ ==
  "__main__":`` block in the module's namespace) until it calls
  ``parse_args``; that call is intercepted and the parser kept.  Warnings
  the entry point raises on the way (the api_server's DeprecationWarning)
  are recorded;
* for each parser: every action (``vllm_oracle/schema.py``), what each
  zero-argument spelling stores (parsed by the real parser, so ``--no-x``
  and ``--disable-x`` are observed), whether ``--help`` lists every visible
  spelling, and **probes**: a few argv run through the real parser to
  observe behaviour that changed between releases (``--model`` after
  ``vllm serve``, dotted JSON keys, ``--config`` YAML handling, ``-O3``,
  abbreviations);
* ``_ModelInfo`` for every key of the model registry where the release has
  ``_ModelInfo`` (computed in-process with the call vLLM's inspection
  subprocess makes, ``_ModelInfo.from_model_cls(load_model_cls())``), else
  the registry entries (module, class, registry tables) alone.

Third-party shims (applied before anything is imported, documented in
README.md): the PyPI builds of torchvision/torchaudio are CUDA builds whose
native extensions cannot load against torch+cpu.  Model modules import them
only for image/audio preprocessing, never for the class attributes
``_ModelInfo`` reads, so their native-op registration is skipped.  No vLLM
code is replaced.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import tempfile
import time
import traceback
import types

os.environ.setdefault("VLLM_TARGET_DEVICE", "cpu")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("VLLM_NO_USAGE_STATS", "1")
os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")

OUT_PATH = sys.argv[1] if len(sys.argv) > 1 else "release.json"
# What vLLM reads from sys.argv while it builds its parsers:
# * vllm/engine/arg_utils.py extracts the help texts only when some argv
#   element contains "--help" (0.25.0+: NEEDS_HELP);
# * --model is left out when argv holds "serve" (0.9.x: `if 'serve' not in
#   sys.argv[1:] and '--help' not in sys.argv[1:]`) or "serve" and the exact
#   token "--help" (0.25.0+);
# * vllm/entrypoints/utils.py prints a filtered help and exits for an
#   element starting with "--help=" (0.9.x on).
# So each entry point is built with the argv a user's launch has, plus
# HELP_WORD: it contains "--help" but is neither "--help" nor "--help=...".
HELP_WORD = "--help-schema-dump"
sys.argv = [sys.argv[0], HELP_WORD]

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "vllm_oracle"), HERE]


from shims import install_shims as _install_shims  # noqa: E402


# --- provenance -------------------------------------------------------------
def _commit() -> str | None:
    for mod, names in (("vllm._version", ("__commit_id__", "commit_id")), ("vllm.commit_id", ("__commit__",))):
        try:
            m = importlib.import_module(mod)
        except Exception:
            continue
        for n in names:
            value = getattr(m, n, None)
            if value:
                return value
    return None


def provenance(shims: list[str]) -> dict:
    import vllm

    out = {"vllm_version": getattr(vllm, "__version__", None), "commit": _commit()}
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
    # The oracle's CPU platform plugin is on the path for releases that
    # detect the CPU only from a "+cpu" version (provision.py).
    out["cpu_platform_plugin"] = any("cpu-platform-plugin" in p for p in sys.path)
    return out


from entrypoints import Reader, capture_entry_points, dispatch_check, jsonable as _jsonable  # noqa: E402


def zero_arg_stores(reader: Reader) -> dict:
    parser = reader.parser
    strings: dict[str, list[str]] = {}
    for s, action in parser._option_string_actions.items():
        strings.setdefault(action.dest, []).append(s)
    model = _model_words(reader)
    stores, errors = {}, {}
    for action in parser._actions:
        if action.nargs != 0 or action.dest == "help":
            continue
        for s in strings.get(action.dest, []):
            got = reader.parse(model + [s])
            if "ok" in got:
                stores[s] = got["ok"].get(action.dest)
            else:
                errors[s] = got["error"]
    return {
        "strings_by_dest": {k: sorted(v) for k, v in strings.items()},
        "zero_arg_stores": stores,
        "zero_arg_errors": errors,
    }


def _model_words(reader: Reader) -> list[str]:
    """What names the model on this entry point: the positional of ``vllm
    serve`` (required in old releases), ``--model`` elsewhere."""
    if reader.entry == "serve":
        return ["probe-model"]
    return ["--model", "probe-model"] if "--model" in reader.parser._option_string_actions else []


def help_check(parser) -> dict:
    """Does ``--help`` list every visible option string?"""
    import argparse

    # argparse's own formatter: vLLM's FlexibleArgumentParser prints a
    # summary by group from 0.2x on (the options behind --help=<group>).
    text = argparse.ArgumentParser.format_help(parser)
    missing = []
    for action in parser._actions:
        if action.help is argparse.SUPPRESS:
            continue
        for s in action.option_strings:
            if s not in text:
                missing.append(s)
    return {"listed_options": sum(1 for a in parser._actions if a.option_strings and a.help is not argparse.SUPPRESS),
            "missing_from_help": missing, "formatter": "argparse.ArgumentParser.format_help"}


def _json_probe_option(parser) -> tuple[str | None, str | None]:
    """A JSON-valued option accepting any key (a dict kind), and one
    validated against a dataclass, for the dotted-key probes."""
    import schema

    free = dataclass = None
    for action in parser._actions:
        kind = schema.type_contains_json(action.type)
        longs = [s for s in action.option_strings if s.startswith("--")]
        if not longs:
            continue
        if kind == "dict" and free is None and action.dest in ("hf_overrides", "override_generation_config"):
            free = longs[0]
        if kind == "dataclass" and dataclass is None and action.dest == "compilation_config":
            dataclass = longs[0]
    return free, dataclass


# The namespace entries a probe's answer keeps (the others are defaults).
PROBE_DESTS = ("model", "model_tag", "port", "enforce_eager", "disable_log_stats", "trust_remote_code",
               "served_model_name", "max_model_len", "hf_overrides", "compilation_config", "config",
               "enable_prefix_caching", "optimization_level")


def _keep(got: dict) -> dict:
    if "ok" in got:
        got = dict(got)
        got["ok"] = {k: v for k, v in got["ok"].items() if k in PROBE_DESTS}
    return got


def _bool_optional_dest(parser) -> str | None:
    """A BooleanOptionalAction option, for the ``key: false`` YAML probe."""
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse.BooleanOptionalAction) and action.dest == "enable_prefix_caching":
            return action.dest
    return None


def probes(reader: Reader) -> dict:
    """Parser behaviour that changed between releases, observed."""
    parser = reader.parser
    strings = parser._option_string_actions
    model = _model_words(reader)
    out: dict[str, dict] = {}

    def probe(name: str, argv: list[str], dispatch: bool = False) -> None:
        got = reader.parse(argv)
        if dispatch and "ok" in got and reader.entry == "serve":
            got["dispatch"] = dispatch_check(reader, argv)
        out[name] = _keep(got)

    probe("plain", model, dispatch=True)
    if "--model" in strings:
        probe("model_flag", ["--model", "flag-model"], dispatch=True)
    if reader.entry == "serve":
        probe("model_flag_and_positional", ["pos-model", "--model", "flag-model"], dispatch=True)
        probe("no_model", [])
    if "--max-model-len" in strings:
        probe("underscore", model + ["--max_model_len", "1024"])
        probe("underscore_equals", model + ["--max_model_len=1024"])
        probe("abbreviation", model + ["--max-model", "1024"])
    probe("opt_level", model + ["-O3"])
    free, dataclass = _json_probe_option(parser)
    if free:
        probe("dotted_key", model + [f"{free}.probe_key", "1"])
        probe("dotted_key_dashes", model + [f"{free}.probe-key", "1"])
        probe("dotted_key_after_json", model + [free, '{"a": 1}', f"{free}.b", "2"])
    if dataclass:
        probe("dotted_dataclass", model + [f"{dataclass}.level", "3"])
    with tempfile.TemporaryDirectory() as tmp:
        def config(name: str, text: str, argv_of) -> None:
            path = os.path.join(tmp, f"{name}.yaml")
            with open(path, "w") as f:
                f.write(text)
            probe(name, argv_of(path))
            out[name]["yaml"] = text

        config("config_int", "port: 8123\n", lambda p: model + ["--config", p])
        config("config_int_equals", "port: 8123\n", lambda p: model + [f"--config={p}"])
        config("config_store_true", "enforce-eager: true\n", lambda p: model + ["--config", p])
        config("config_store_true_false", "enforce-eager: false\n", lambda p: model + ["--config", p])
        if _bool_optional_dest(parser):
            config("config_bool_optional_false", "enable-prefix-caching: false\n", lambda p: model + ["--config", p])
        if "--served-model-name" in strings:
            config("config_list", "served-model-name: [name-a, name-b]\n", lambda p: model + ["--config", p])
            config("config_list_before_positional", "served-model-name: [name-a, name-b]\n",
                   lambda p: ["--config", p] + model)
        if reader.entry == "serve":
            config("config_model_key", "model: config-model\n", lambda p: ["--config", p])
            config("config_model_key_and_positional", "model: config-model\n", lambda p: ["pos-model", "--config", p])
    return out


def describe_entry(entry: str, info: dict) -> dict:
    import schema

    rec = {"built_by": info["built_by"], "warnings": info["warnings"], "error": info["error"]}
    parser = info["parser"]
    if parser is None:
        return rec
    options, groups = schema.describe(parser)
    rec["options"] = options
    rec["groups"] = groups
    rec["num_options"] = len(options)
    rec["num_option_strings"] = sum(len(o["option_strings"]) for o in options)
    rec["prog"] = parser.prog
    rec["usage"] = parser.usage
    reader = Reader(entry, info)
    rec["parser"] = zero_arg_stores(reader)
    rec["help_check"] = help_check(parser)
    rec["probes"] = probes(reader)
    return rec


# --- architectures ------------------------------------------------------------
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
            mod = importlib.import_module(modname)
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


def _registry():
    """(module holding the registry tables, ModelRegistry) of this release:
    ``models/registry.py`` from 0.6.2-ish on, ``models/__init__.py`` before."""
    try:
        reg = importlib.import_module("vllm.model_executor.models.registry")
    except ImportError:
        reg = importlib.import_module("vllm.model_executor.models")
    return reg, getattr(reg, "ModelRegistry")


def _entries(reg, registry) -> dict[str, tuple]:
    """arch -> (module, class name, loader)."""
    models = getattr(registry, "models", None)
    out = {}
    if isinstance(models, dict):  # _ModelRegistry instance with lazy entries
        for arch, entry in models.items():
            out[arch] = (getattr(entry, "module_name", None), getattr(entry, "class_name", None),
                         getattr(entry, "load_model_cls", None))
        return out
    table = getattr(reg, "_MODELS", {})
    for arch, value in table.items():
        module, cls = value if isinstance(value, tuple) else (None, None)
        if module and not module.startswith("vllm."):
            module = f"vllm.model_executor.models.{module}"

        def load(arch=arch):
            for name in ("_try_load_model_cls", "_get_model"):
                fn = getattr(registry, name, None)
                if fn is not None:
                    return fn(arch)
            raise RuntimeError("no loader in this release's ModelRegistry")

        out[arch] = (module, cls, load)
    return out


def architecture_facts() -> dict:
    reg, registry = _registry()
    model_info = getattr(reg, "_ModelInfo", None)
    info_fields = [f.name for f in dataclasses.fields(model_info)] if model_info is not None else []
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
    for arch, (module, class_name, load) in sorted(_entries(reg, registry).items()):
        rec: dict = {
            "module": module,
            "class_name": class_name,
            "registry_groups": sorted(groups.get(arch, [])),
        }
        dispatch = _platform_dispatch(module, class_name)
        if dispatch and dispatch["cpu"] != dispatch["cuda"]:
            # These facts are the CPU class's; CUDA would load another class.
            rec["platform_dependent"] = dispatch
        hook = MODELS_CONFIG_MAP.get(arch)
        rec["models_config_map"] = getattr(hook, "__name__", None) if hook else None
        if model_info is None:
            rec["error"] = "this release has no _ModelInfo (vllm/model_executor/models/registry.py)"
            archs[arch] = rec
            continue
        try:
            cls = load()
            if cls is None:
                raise ImportError(f"the registry could not load {arch}")
            info = model_info.from_model_cls(cls)
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
    shims = _install_shims()
    import schema

    schema.install()
    result = {"provenance": provenance(shims)}
    result["provenance"]["platform_after_import"] = schema.platform_name()
    entries = capture_entry_points()
    result["entry_points"] = {name: describe_entry(name, info) for name, info in entries.items()}
    result["architectures"] = architecture_facts()
    text = json.dumps(result, indent=1, sort_keys=True, default=repr)
    import re

    # reprs of functions carry memory addresses; drop them so dumps are stable
    text = re.sub(r" at 0x[0-9a-fA-F]+>", ">", text)
    with open(OUT_PATH, "w") as f:
        f.write(text)
    archs = result["architectures"]["architectures"]
    failed = sorted(a for a, r in archs.items() if "error" in r)
    summary = ", ".join(f"{n}: {e.get('num_options', 'ERROR ' + str(e.get('error')))}"
                        for n, e in result["entry_points"].items())
    print(
        f"wrote {OUT_PATH}: vllm {result['provenance']['vllm_version']}, entry points ({summary}), "
        f"{len(archs)} architectures ({len(failed)} without facts)",
        file=sys.stderr,
    )


if __name__ == "__main__":
    try:
        main()
    except Exception:
        traceback.print_exc()
        sys.exit(1)
