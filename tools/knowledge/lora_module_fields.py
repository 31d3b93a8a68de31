#!/usr/bin/env python3
"""The fields of ``LoRAModulePath`` in each vLLM release.

    python tools/knowledge/lora_module_fields.py            # every release in $VLLM_ORACLE_HOME/releases
    python tools/knowledge/lora_module_fields.py 0.34.0     # add or refresh one release, keep the others
    python tools/knowledge/lora_module_fields.py --check    # exit 1 if the table would change

``LoRAParserAction`` (vllm/entrypoints/common/cli_args.py in 0.33.0) builds
each JSON item of `--lora-modules` as ``LoRAModulePath(**item)``, a
dataclass: a key that is not one of its fields is a ``TypeError`` vLLM turns
into "Invalid fields for --lora-modules: ...".  This script finds the class
(``class LoRAModulePath`` decorated ``@dataclass``, anywhere under vllm/)
in each unpacked release with ``ast`` and writes its fields, in order, to
``server/servelint/knowledge/data/lora_module_fields.json``.  A release where
it finds no such dataclass, or more than one, is left out (the rule reading
it stays silent there).
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

OUT = os.path.join(ROOT, "server", "servelint", "knowledge", "data", "lora_module_fields.json")


def releases_dir() -> str:
    home = os.environ.get("VLLM_ORACLE_HOME") or os.path.expanduser("~/.cache/vllm-oracle")
    return os.path.join(home, "releases")


def _is_dataclass(node: ast.ClassDef) -> bool:
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
        if name == "dataclass":
            return True
    return False


def scan_release(root: str) -> dict | None:
    found = []
    base = os.path.join(root, "vllm")
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__", "tests"))
        for name in sorted(filenames):
            if not name.endswith(".py"):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            if "class LoRAModulePath" not in text:
                continue
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.ClassDef) and node.name == "LoRAModulePath" and _is_dataclass(node):
                    fields = [s.target.id for s in node.body
                              if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
                              and not (isinstance(s.annotation, ast.Subscript)
                                       and getattr(s.annotation.value, "id", "") == "ClassVar")]
                    required = [s.target.id for s in node.body
                                if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and s.value is None]
                    found.append({"file": os.path.relpath(path, root).replace(os.sep, "/"), "line": node.lineno,
                                  "fields": fields, "required": required})
    return found[0] if len(found) == 1 else None


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
        print(f"{v}: {found['fields'] if found else 'no LoRAModulePath dataclass'}", file=sys.stderr)
    doc = {
        "generated_by": "tools/knowledge/lora_module_fields.py (the LoRAModulePath dataclass of each unpacked release)",
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
