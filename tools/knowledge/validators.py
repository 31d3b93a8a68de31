#!/usr/bin/env python3
"""Find every vLLM check the rules mirror in every release's unpacked wheel.

    python tools/knowledge/validators.py                # every release in $VLLM_ORACLE_HOME/releases
    python tools/knowledge/validators.py 0.34.0         # add or refresh one release, keep the others
    python tools/knowledge/validators.py --check        # exit 1 if the table would change

Each rule names the checks it mirrors (``vllm_checks``: a key and a needle,
a piece of vLLM's message as its source spells it; see
``servelint.knowledge.validators``).  For each release this script reads
every ``vllm/**/*.py``, finds the string literal holding each needle (with
``ast``: an f-string's formatted parts become ``{}``), and records the file,
the line of the needle and the message template.  A needle found in several
literals is resolved by the rule's ``path`` and then by preferring a literal
inside a ``raise`` or a logger call.  The result is
``server/servelint/knowledge/data/validators.json``; the report it prints
says, per check, where its message changed and where it is missing.

Releases already in the table and not named again are kept as they are, so
adding a release needs only that release unpacked.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
from functools import lru_cache

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "server"))

from servelint.knowledge.validators import stored_needle  # noqa: E402
from servelint.knowledge.versions import version_key  # noqa: E402

OUT = os.path.join(ROOT, "server", "servelint", "knowledge", "data", "validators.json")
_LOGGERS = ("warning", "warning_once", "info", "info_once", "error", "warn", "debug")


def releases_dir() -> str:
    home = os.environ.get("VLLM_ORACLE_HOME") or os.path.expanduser("~/.cache/vllm-oracle")
    return os.path.join(home, "releases")


def collect_checks() -> dict:
    """key → VllmCheck, from every rule (``vllm_checks``) and every derive
    module (``VLLM_FACTS``); a key used twice must mean one check."""
    import importlib
    import pkgutil

    import servelint.derive
    from servelint.rules import rule_classes

    declared = [(cls.code, c) for cls in rule_classes() for c in getattr(cls, "vllm_checks", ())]
    for info in pkgutil.iter_modules(servelint.derive.__path__):
        module = importlib.import_module(f"servelint.derive.{info.name}")
        declared.extend((module.__name__, c) for c in getattr(module, "VLLM_FACTS", ()))
    out: dict = {}
    for owner, check in declared:
        prev = out.get(check.key)
        if prev is not None and prev != check:
            raise SystemExit(f"check {check.key!r} declared twice differently: {prev} / {check} ({owner})")
        out[check.key] = check
    return out


def _plain(check):
    return stored_needle(check)


def _sources(root: str):
    base = os.path.join(root, "vllm")
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__", "tests"))
        for name in sorted(filenames):
            if name.endswith(".py"):
                path = os.path.join(dirpath, name)
                yield os.path.relpath(path, root).replace(os.sep, "/"), path


def _template(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            else:
                parts.append("{}")
        return "".join(parts)
    return None


class _File:
    def __init__(self, rel: str, path: str) -> None:
        self.rel = rel
        with open(path, encoding="utf-8", errors="replace") as f:
            self.text = f.read()
        self._literals = None

    def literals(self):
        """(template, first line, last line, in a raise or logger call) per string literal."""
        if self._literals is None:
            self._literals = []
            try:
                tree = ast.parse(self.text)
            except SyntaxError:
                return self._literals
            parents: dict = {}
            for p in ast.walk(tree):
                for c in ast.iter_child_nodes(p):
                    parents[c] = p
            for node in ast.walk(tree):
                if isinstance(node, ast.FormattedValue):
                    continue
                if isinstance(parents.get(node), ast.JoinedStr):
                    continue  # a piece of an f-string: the whole one is taken
                t = _template(node)
                if t is None:
                    continue
                self._literals.append((t, node.lineno, node.end_lineno or node.lineno, _raised(node, parents)))
        return self._literals


def _raised(node, parents) -> bool:
    p = parents.get(node)
    while p is not None and not isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
        if isinstance(p, ast.Raise):
            return True
        if isinstance(p, ast.Call) and isinstance(p.func, ast.Attribute) and p.func.attr in _LOGGERS:
            return True
        p = parents.get(p)
    return False


def scan_release(root: str, checks: dict) -> dict:
    """key → (file, line, template) for the checks found in one release."""
    files = [_File(rel, path) for rel, path in _sources(root)]
    found: dict = {}
    for key, check in sorted(checks.items()):
        candidates = []
        for rank, needle in enumerate(check.needles):
            for f in files:
                if check.path is not None and f.rel != check.path:
                    continue
                if check.path is None and needle not in f.text:
                    continue  # a quick filter; a needle across literal pieces needs ``path``
                lines = f.text.splitlines()
                if check.code:
                    for n, line in enumerate(lines, 1):
                        if needle in " ".join(line.split()):
                            candidates.append((rank, False, f.rel, n, needle))
                    continue
                for template, first, last, raised in f.literals():
                    flat = " ".join(template.split())
                    if (flat != needle) if check.whole else (needle not in flat):
                        continue
                    line = next((n for n in range(first, last + 1) if needle in lines[n - 1]), first)
                    candidates.append((rank, not raised, f.rel, line, template))
            if candidates:
                break
        if not candidates:
            continue
        candidates.sort()
        _, _, rel, line, template = candidates[0]
        found[key] = (rel, line, " ".join(template.split()))
    return found


def encode(table: dict) -> dict:
    """Per check, releases grouped by identical template (small diffs when a release is added)."""
    out = {"releases": sorted(table["releases"], key=version_key), "checks": {}}
    for key in sorted(table["checks"]):
        entry = table["checks"][key]
        groups: dict = {}
        for release in sorted(entry["found"], key=version_key):
            rel, line, template = entry["found"][release]
            groups.setdefault(template, {})[release] = f"{rel}:{line}"
        out["checks"][key] = {
            "needle": entry["needle"],
            **({"path": entry["path"]} if entry.get("path") else {}),
            "groups": [{"template": t, "at": at} for t, at in groups.items()],
        }
    return out


def decode(data: dict) -> dict:
    table = {"releases": list(data.get("releases", ())), "checks": {}}
    for key, entry in data.get("checks", {}).items():
        found = {}
        for g in entry.get("groups", ()):
            for release, where in g["at"].items():
                rel, _, line = where.rpartition(":")
                found[release] = (rel, int(line), g["template"])
        table["checks"][key] = {"needle": entry["needle"], "path": entry.get("path"), "found": found}
    return table


def report(old: dict, new: dict) -> list[str]:
    lines = []
    releases = sorted(new["releases"], key=version_key)
    for key in sorted(new["checks"]):
        entry = new["checks"][key]
        found = entry["found"]
        have = [r for r in releases if r in found]
        missing = [r for r in releases if r not in found]
        prev = None
        changes = []
        for r in have:
            t = found[r][2]
            if prev is not None and t != prev:
                changes.append(r)
            prev = t
        before = old["checks"].get(key, {}).get("found", {})
        added = [r for r in have if r not in before]
        note = []
        if added and before:
            note.append("new in table: " + ", ".join(added))
        if changes:
            note.append("message changed in " + ", ".join(changes))
        if missing:
            note.append("not found in " + ", ".join(missing))
        lines.append(f"{key:28} {have[0] if have else '-'} .. {have[-1] if have else '-'}" + (f"  ({'; '.join(note)})" if note else ""))
    for key in sorted(set(old["checks"]) - set(new["checks"])):
        lines.append(f"{key:28} dropped (no rule declares it any more)")
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("versions", nargs="*", help="releases to (re)scan; default: every unpacked release")
    ap.add_argument("--releases-dir", default=releases_dir())
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if the table would change")
    args = ap.parse_args(argv)

    checks = collect_checks()
    try:
        with open(args.out, encoding="utf-8") as f:
            old = decode(json.load(f))
    except FileNotFoundError:
        old = {"releases": [], "checks": {}}
    versions = args.versions or sorted(
        (d for d in os.listdir(args.releases_dir) if os.path.isdir(os.path.join(args.releases_dir, d, "vllm"))),
        key=version_key,
    )
    new = {"releases": sorted(set(old["releases"]) | set(versions), key=version_key), "checks": {}}
    for key, check in checks.items():
        kept = old["checks"].get(key)
        same = kept is not None and kept["needle"] == _plain(check) and kept.get("path") == check.path
        found = {r: v for r, v in kept["found"].items() if r not in versions} if same else {}
        new["checks"][key] = {"needle": _plain(check), "path": check.path, "found": found}
    stale = [r for r in new["releases"] if r not in versions
             and any(r not in e["found"] and not (old["checks"].get(k) and old["checks"][k]["needle"] == e["needle"])
                     for k, e in new["checks"].items())]
    for v in sorted(set(versions) | set(stale), key=version_key):
        root = os.path.join(args.releases_dir, v)
        if not os.path.isdir(os.path.join(root, "vllm")):
            raise SystemExit(f"vLLM {v} is not unpacked in {args.releases_dir} (run the oracle's setup.sh {v})")
        for key, where in scan_release(root, checks).items():
            new["checks"][key]["found"][v] = where
        print(f"scanned {v}", file=sys.stderr)
    encoded = encode(new)
    text = json.dumps(encoded, indent=1, sort_keys=False) + "\n"
    for line in report(old, new):
        print(line)
    if args.check:
        try:
            with open(args.out, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = ""
        return 0 if current == text else 1
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(args.out, ROOT)} ({len(text):,} bytes)", file=sys.stderr)
    # The rule index holds each rule's releases, read from this table.
    done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "rule_index.py")])
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
