#!/usr/bin/env python3
"""The tool-call and reasoning parsers each vLLM release registers.

    python tools/knowledge/parsers.py                # every release in $VLLM_ORACLE_HOME/releases
    python tools/knowledge/parsers.py 0.34.0         # add or refresh one release, keep the others
    python tools/knowledge/parsers.py --check        # exit 1 if the table would change

`validate_api_server_args` (vllm/entrypoints/common/cli_args.py in 0.33.0,
launchers/launcher.py in 0.29.0-0.32.0, openai/api_server.py before) refuses
a `--tool-call-parser` or a reasoning parser that ``ToolParserManager`` /
``ReasoningParserManager.list_registered()`` does not list: the names of the
package's registration table (``_TOOL_PARSERS_TO_REGISTER`` in
vllm/tool_parsers/__init__.py, ``_REASONING_PARSERS_TO_REGISTER`` in
vllm/reasoning/__init__.py, each registered with ``register_lazy_module``),
plus any name registered with a literal ``register_lazy_module(...)`` call or
a ``@...register_module(...)`` decorator in those packages (older layouts
kept the tool parsers in vllm/entrypoints/openai/tool_parsers/).  This script
reads them from each unpacked release with ``ast`` (vLLM is not imported)
and writes ``server/servelint/knowledge/data/parsers.json``:
``{"releases": {VERSION: {"tool": [...], "reasoning": [...]}}}``, each list
sorted as ``list_registered`` sorts it.  A release whose table it cannot
find is left out (the rules reading it stay silent there).
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

OUT = os.path.join(ROOT, "server", "servelint", "knowledge", "data", "parsers.json")

# kind → (candidate packages, the table's name, the manager's class name)
KINDS = {
    "tool": (("vllm/tool_parsers", "vllm/entrypoints/openai/tool_parsers"), "_TOOL_PARSERS_TO_REGISTER", "ToolParserManager"),
    "reasoning": (("vllm/reasoning",), "_REASONING_PARSERS_TO_REGISTER", "ReasoningParserManager"),
}


def releases_dir() -> str:
    home = os.environ.get("VLLM_ORACLE_HOME") or os.path.expanduser("~/.cache/vllm-oracle")
    return os.path.join(home, "releases")


def _names(node: ast.AST) -> list[str]:
    """The literal name(s) of a registration argument: a string or a list/tuple of strings."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _is_manager_call(node: ast.AST, manager: str, method: str) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == method
            and isinstance(node.func.value, ast.Name) and node.func.value.id == manager)


def scan_package(root: str, packages: tuple, table: str, manager: str) -> list[str] | None:
    """The names one release registers for one kind; None when no table is found."""
    for pkg in packages:
        base = os.path.join(root, pkg)
        init = os.path.join(base, "__init__.py")
        if not os.path.isfile(init):
            continue
        names: set[str] = set()
        found = False
        for name in sorted(os.listdir(base)):
            if not name.endswith(".py"):
                continue
            with open(os.path.join(base, name), encoding="utf-8", errors="replace") as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, (ast.Assign, ast.AnnAssign)) and name == "__init__.py":
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    if any(isinstance(t, ast.Name) and t.id == table for t in targets) and isinstance(node.value, ast.Dict):
                        found = True
                        names.update(k.value for k in node.value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str))
                elif _is_manager_call(node, manager, "register_lazy_module") and node.args:
                    found = True if _names(node.args[0]) else found
                    names.update(_names(node.args[0]))
                elif _is_manager_call(node, manager, "register_module"):
                    arg = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "name"), None)
                    if arg is not None and _names(arg):
                        found = True
                        names.update(_names(arg))
        if found:
            return sorted(names)
    return None


def scan_release(root: str) -> dict:
    out = {}
    for kind, (packages, table, manager) in KINDS.items():
        names = scan_package(root, packages, table, manager)
        if names is not None:
            out[kind] = names
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("versions", nargs="*", help="releases to (re)scan; default: every unpacked release")
    ap.add_argument("--releases-dir", default=releases_dir())
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if the table would change")
    args = ap.parse_args(argv)
    try:
        with open(args.out, encoding="utf-8") as f:
            old = json.load(f)["releases"]
    except FileNotFoundError:
        old = {}
    versions = args.versions or [d for d in os.listdir(args.releases_dir)
                                 if os.path.isdir(os.path.join(args.releases_dir, d, "vllm"))]
    new = dict(old)
    for v in versions:
        root = os.path.join(args.releases_dir, v)
        if not os.path.isdir(os.path.join(root, "vllm")):
            raise SystemExit(f"vLLM {v} is not unpacked in {args.releases_dir}")
        found = scan_release(root)
        if found:
            new[v] = found
        else:
            new.pop(v, None)
        print(f"{v}: " + ", ".join(f"{len(found.get(k, []))} {k}" if k in found else f"no {k} table" for k in KINDS),
              file=sys.stderr)
    doc = {
        "generated_by": "tools/knowledge/parsers.py (the registration tables of each unpacked release)",
        "releases": dict(sorted(new.items(), key=lambda kv: version_key(kv[0]))),
    }
    text = json.dumps(doc, indent=1) + "\n"
    if args.check:
        try:
            with open(args.out, encoding="utf-8") as f:
                return 0 if f.read() == text else 1
        except FileNotFoundError:
            return 1
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
