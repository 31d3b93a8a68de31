#!/usr/bin/env python3
"""Whether each registered KV connector supports sleep mode, per vLLM release.

    python tools/knowledge/kv_sleep_mode.py            # every release in $VLLM_ORACLE_HOME/releases
    python tools/knowledge/kv_sleep_mode.py --check    # exit 1 if the table would change

``VllmConfig._verify_kv_transfer_compat`` (vllm/config/vllm.py, 0.33.0+)
stops a launch with ``--enable-sleep-mode`` whose connector class answers
``supports_sleep_mode(kv_transfer_config)`` False.  For each release that
has that check this script reads, with ``ast``, the connectors
``KVConnectorFactory.register_connector`` registers
(vllm/distributed/kv_transfer/kv_connector/factory.py: name, module, class)
and each class's ``supports_sleep_mode``, its own or a base class's: a
method that is a single ``return True``/``return False`` gives "yes"/"no";
any other body (it reads the config or the environment) gives "cond" and
the class that defines it, for the rule to evaluate or to stay silent on.

Writes ``server/servelint/knowledge/data/kv_sleep_mode.json``.
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

OUT = os.path.join(ROOT, "server", "servelint", "knowledge", "data", "kv_sleep_mode.json")
_FACTORY = "vllm/distributed/kv_transfer/kv_connector/factory.py"
_CHECK_FILE = "vllm/config/vllm.py"


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


def _package(rel: str) -> str:
    return rel[: -len("/__init__.py")] if rel.endswith("/__init__.py") else os.path.dirname(rel)


def _imports(root: str, tree: ast.AST, package: str) -> dict[str, tuple[str, str]]:
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            rel = _module_file(root, package, node.module, node.level)
            if rel is None:
                continue
            for alias in node.names:
                out[alias.asname or alias.name] = (rel, alias.name)
    return out


def _answer(fn: ast.FunctionDef) -> str:
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value, ast.Constant):
        value = body[0].value.value
        if value is True:
            return "yes"
        if value is False:
            return "no"
    return "cond"


def _resolve(root: str, rel: str, cls_name: str, depth: int = 0) -> dict | None:
    """{"sleep": yes/no/cond, "class": defining class, "at": file:line} for ``cls_name``."""
    if depth > 8:
        return None
    tree = _parse(root, rel)
    if tree is None:
        return None
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls_name), None)
    if cls is None:
        for node in tree.body:  # an alias: ``Name = Other``
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Name)
                    and any(isinstance(t, ast.Name) and t.id == cls_name for t in node.targets)):
                return _resolve(root, rel, node.value.id, depth + 1)
        target = _imports(root, tree, _package(rel)).get(cls_name)
        return _resolve(root, target[0], target[1], depth + 1) if target else None
    for fn in cls.body:
        if isinstance(fn, ast.FunctionDef) and fn.name == "supports_sleep_mode":
            return {"sleep": _answer(fn), "class": cls_name, "at": f"{rel}:{fn.lineno}"}
    imports = _imports(root, tree, _package(rel))
    for base in cls.bases:
        if isinstance(base, ast.Name):
            if any(isinstance(n, ast.ClassDef) and n.name == base.id for n in tree.body):
                got = _resolve(root, rel, base.id, depth + 1)
            elif base.id in imports:
                got = _resolve(root, *imports[base.id], depth + 1)
            else:
                got = None
            if got is not None:
                return got
    return None


def scan_release(root: str) -> dict | None:
    """Connector name → its answer; None when the release has no sleep-mode check."""
    with open(os.path.join(root, _CHECK_FILE), encoding="utf-8") as f:
        if ".supports_sleep_mode(" not in f.read():
            return None
    tree = _parse(root, _FACTORY)
    out = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "register_connector" and len(node.args) == 3):
            continue
        name, module, cls = (a.value if isinstance(a, ast.Constant) else None for a in node.args)
        if not all(isinstance(x, str) for x in (name, module, cls)):
            continue
        rel = _module_file(root, "", module, 0)
        got = _resolve(root, rel, cls) if rel else None
        if got is not None:
            out[name] = got
    return dict(sorted(out.items()))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the table would change")
    args = ap.parse_args(argv)
    base = releases_dir()
    releases = sorted((v for v in os.listdir(base) if os.path.isdir(os.path.join(base, v, "vllm"))), key=version_key)
    scanned = {v: scan_release(os.path.join(base, v)) for v in releases}
    table = {"about": "Per release with VllmConfig's sleep-mode check: each registered KV connector's "
                      "supports_sleep_mode (yes/no/cond); generated by tools/knowledge/kv_sleep_mode.py",
             "releases": {v: got for v, got in scanned.items() if got is not None}}
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    if args.check:
        with open(OUT, encoding="utf-8") as f:
            return 0 if f.read() == text else 1
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    for v, conns in table["releases"].items():
        print(v, " ".join(f"{n}={e['sleep']}" for n, e in conns.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
