#!/usr/bin/env python3
"""The minimum GPU capability of every quantization method, per vLLM release.

    python tools/knowledge/quant_capability.py            # every release in $VLLM_ORACLE_HOME/releases
    python tools/knowledge/quant_capability.py --check    # exit 1 if the table would change

``VllmConfig._get_quantization_config`` (vllm/config/vllm.py) stops a
launch whose GPU's capability is below ``quant_config.get_min_capability()``
of its method's config class.  For each release this script reads, with
``ast``, ``get_quantization_config``'s ``method_to_config`` mapping
(vllm/model_executor/layers/quantization/__init__.py: method name → class,
and the imports that say where each class lives), then each class's
``get_min_capability``: a method that returns an integer literal, its own
or a base class's.  A class whose minimum is computed (from the checkpoint's
scheme) is left out, and so is a method bound to a variable: servelint
knows nothing about them.  The online shorthands (``_ONLINE_SHORTHANDS`` of
vllm/config/quantization.py) take the class the mapping gives them.

Writes ``server/servelint/knowledge/data/quant_capability.json``.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "server"))

from servelint.knowledge.versions import version_key  # noqa: E402

OUT = os.path.join(ROOT, "server", "servelint", "knowledge", "data", "quant_capability.json")
_QUANT = "vllm/model_executor/layers/quantization"


def releases_dir() -> str:
    home = os.environ.get("VLLM_ORACLE_HOME") or os.path.expanduser("~/.cache/vllm-oracle")
    return os.path.join(home, "releases")


def _parse(root: str, rel: str) -> ast.Module | None:
    path = os.path.join(root, rel)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), rel)


def _module_file(root: str, package: str, module: str | None, level: int) -> str | None:
    """The file of ``from <level dots><module> import ...`` inside ``package``."""
    if level:
        parts = package.split("/")[: len(package.split("/")) - level + 1]
        base = "/".join(parts + (module.split(".") if module else []))
    else:
        base = (module or "").replace(".", "/")
    for candidate in (base + ".py", base + "/__init__.py"):
        if os.path.exists(os.path.join(root, candidate)):
            return candidate
    return None


def _imports(root: str, tree: ast.AST, package: str) -> dict[str, tuple[str, str]]:
    """Imported name → (file, class name) for every ``from X import Y`` in ``tree``."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            rel = _module_file(root, package, node.module, node.level)
            if rel is None:
                continue
            for alias in node.names:
                out[alias.asname or alias.name] = (rel, alias.name)
    return out


def _min_capability(root: str, rel: str, cls_name: str, depth: int = 0) -> tuple[int, str] | None:
    """(minimum, "file:line") of ``cls_name``'s get_min_capability, if it is a literal."""
    if depth > 5:
        return None
    tree = _parse(root, rel)
    if tree is None:
        return None
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls_name), None)
    if cls is None:
        # Re-exported from another module of the package.
        target = _imports(root, tree, os.path.dirname(rel) if not rel.endswith("__init__.py") else rel[: -len("/__init__.py")]).get(cls_name)
        return _min_capability(root, target[0], target[1], depth + 1) if target else None
    for fn in cls.body:
        if isinstance(fn, ast.FunctionDef) and fn.name == "get_min_capability":
            returns = [r for r in ast.walk(fn) if isinstance(r, ast.Return)]
            if len(returns) == 1 and isinstance(returns[0].value, ast.Constant) and isinstance(returns[0].value.value, int):
                return returns[0].value.value, f"{rel}:{returns[0].lineno}"
            return None  # computed
    package = os.path.dirname(rel)
    imports = _imports(root, tree, package)
    for base in cls.bases:
        if isinstance(base, ast.Name):
            if any(isinstance(n, ast.ClassDef) and n.name == base.id for n in tree.body):
                got = _min_capability(root, rel, base.id, depth + 1)
            elif base.id in imports:
                got = _min_capability(root, *imports[base.id], depth + 1)
            else:
                got = None
            if got is not None:
                return got
    return None


def _shorthands(root: str) -> list[str]:
    tree = _parse(root, "vllm/config/quantization.py")
    if tree is None:
        return []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "_ONLINE_SHORTHANDS" for t in targets) and node.value is not None:
            value = node.value
            if isinstance(value, ast.Dict):
                return [k.value for k in value.keys if isinstance(k, ast.Constant)]
            if isinstance(value, (ast.Tuple, ast.List, ast.Set)):
                return [e.value for e in value.elts if isinstance(e, ast.Constant)]
    return []


def scan_release(root: str) -> dict:
    init = f"{_QUANT}/__init__.py"
    tree = _parse(root, init)
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "get_quantization_config")
    imports = _imports(root, fn, _QUANT)
    mapping = None
    for node in ast.walk(fn):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "method_to_config":
            mapping = node.value
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "method_to_config" for t in node.targets):
            mapping = node.value
    out = {}
    classes = {}
    for k, v in zip(mapping.keys, mapping.values):
        if isinstance(k, ast.Constant) and isinstance(v, ast.Name) and v.id in imports:
            classes[k.value] = v.id
    online = classes.get("online")
    for shorthand in _shorthands(root):
        if online is not None:
            classes.setdefault(shorthand, online)
    for method, cls in sorted(classes.items()):
        got = _min_capability(root, *imports[cls])
        if got is not None:
            out[method] = {"min": got[0], "class": cls, "at": got[1]}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the table would change")
    args = ap.parse_args(argv)
    base = releases_dir()
    releases = sorted((v for v in os.listdir(base) if os.path.isdir(os.path.join(base, v, "vllm"))), key=version_key)
    table = {"about": "Minimum GPU capability (DeviceCapability.to_int) per quantization method, "
                      "from each release's get_min_capability; generated by tools/knowledge/quant_capability.py",
             "releases": {v: scan_release(os.path.join(base, v)) for v in releases}}
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    if args.check:
        with open(OUT, encoding="utf-8") as f:
            return 0 if f.read() == text else 1
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    for v, methods in table["releases"].items():
        print(v, " ".join(f"{m}={e['min']}" for m, e in methods.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
