#!/usr/bin/env python3
"""The environment variables each vLLM release knows (``vllm/envs.py``,
``environment_variables``), for the rule that reports unknown ``VLLM_*``
variables (``Platform.validate_environ`` / ``envs.validate_environ``).

    python tools/knowledge/env_vars.py            # every release unpacked in $VLLM_ORACLE_HOME/releases
    python tools/knowledge/env_vars.py 0.34.0     # add or refresh one release, keep the others

Reads each release's ``vllm/envs.py`` with ``ast`` (the dict's keys are
string literals in 0.25.0-0.33.0; a release where they are not is refused)
and writes ``server/servelint/knowledge/data/env_vars.json``: the releases,
and for each name the releases that know it as a bit mask over that list.
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

OUT = os.path.join(ROOT, "server", "servelint", "knowledge", "data", "env_vars.json")


def names_of(root: str) -> list[str]:
    """The keys of ``environment_variables`` in a release's envs.py."""
    with open(os.path.join(root, "vllm", "envs.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
        if getattr(target, "id", None) == "environment_variables" and isinstance(node.value, ast.Dict):
            keys = node.value.keys
            if not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in keys):
                raise SystemExit(f"{root}: environment_variables has keys that are not string literals")
            return sorted(k.value for k in keys)
    raise SystemExit(f"{root}: no environment_variables dict in vllm/envs.py")


def main(argv=None) -> int:
    home = os.environ.get("VLLM_ORACLE_HOME", os.path.expanduser("~/.cache/vllm-oracle"))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("versions", nargs="*")
    ap.add_argument("--releases-dir", default=os.path.join(home, "releases"))
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args(argv)
    old: dict[str, list[str]] = {}
    if os.path.exists(args.out):
        with open(args.out, encoding="utf-8") as f:
            data = json.load(f)
        for name, mask in data["names"].items():
            for i, r in enumerate(data["releases"]):
                if mask >> i & 1:
                    old.setdefault(r, []).append(name)
    versions = args.versions or [d for d in os.listdir(args.releases_dir)
                                 if os.path.isfile(os.path.join(args.releases_dir, d, "vllm", "envs.py"))]
    for v in versions:
        old[v] = names_of(os.path.join(args.releases_dir, v))
        print(f"{v}: {len(old[v])} variables", file=sys.stderr)
    releases = sorted(old, key=version_key)
    names: dict[str, int] = {}
    for i, r in enumerate(releases):
        for name in old[r]:
            names[name] = names.get(name, 0) | 1 << i
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"releases": releases, "names": dict(sorted(names.items()))}, f, indent=0)
        f.write("\n")
    print(f"wrote {os.path.relpath(args.out, ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
