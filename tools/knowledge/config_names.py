#!/usr/bin/env python3
"""Per-release name lists that vLLM's config validators check values against.

    python tools/knowledge/config_names.py            # every release in $VLLM_ORACLE_HOME/releases
    python tools/knowledge/config_names.py --check    # exit 1 if the table would change

Read with ``ast`` from each unpacked release (never imported):

* ``bucket_families``: the arguments of ``BucketFamilyKey = Literal[...]``
  (vllm/v1/metrics/buckets.py), whose ``get_args`` is ``BUCKET_FAMILY_KEYS``,
  the families ``ObservabilityConfig._validate_custom_histogram_buckets``
  accepts (vllm/config/observability.py);
* ``attention_backends``: the members of ``AttentionBackendEnum``
  (vllm/v1/attention/backends/registry.py), in definition order: the names
  ``_AttentionBackendEnumMeta.__getitem__`` accepts and lists in
  "Unknown attention backend: ...";
* ``attention_backends_reset_to_auto``: the members
  ``AttentionConfig.__post_init__`` resets to automatic selection (the keys
  of its ``msa_aliases`` dict, the MiniMax-M3 sparse decode kernels;
  vllm/config/attention.py), listed where that dict exists;
* ``kv_cache_spec_kinds``: the values of ``KVCacheSpecKind``
  (vllm/v1/kv_cache_interface.py), the keys
  ``AttentionConfig.validate_backend_per_kind_before`` accepts;
* ``flashinfer_moe_ep_architectures``: ``FLASHINFER_MOE_EP_ARCHITECTURES``
  (vllm/config/kernel.py), the architectures
  ``validate_flashinfer_moe_ep_model`` accepts;
* ``flashinfer_moe_ep_model_backends``: the MoE backends
  ``validate_flashinfer_moe_ep_model`` checks the architecture of (its first
  ``if``: ``moe_backend != NAME`` or ``moe_backend not in NAMES``);
* ``flashinfer_moe_ep_backends``: ``FLASHINFER_MOE_EP_BACKENDS``, the MoE
  backends ``bind_passthrough_all2all_backend`` refuses an explicit
  ``--all2all-backend`` with (listed only where that function exists).

A release without the definition has no entry for it.

Writes ``server/servelint/knowledge/data/config_names.json``.
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

OUT = os.path.join(ROOT, "server", "servelint", "knowledge", "data", "config_names.json")


def releases_dir() -> str:
    home = os.environ.get("VLLM_ORACLE_HOME") or os.path.expanduser("~/.cache/vllm-oracle")
    return os.path.join(home, "releases")


def _parse(root: str, rel: str) -> ast.Module | None:
    path = os.path.join(root, rel)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), rel)


def _assigned(tree: ast.Module, name: str) -> ast.expr | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return node.value
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return node.value
    return None


def _strings(node: ast.expr | None) -> list[str] | None:
    """The string constants of a tuple/list/set literal (or one string)."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        out = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return out if len(out) == len(node.elts) else None
    return None


def bucket_families(root: str) -> list[str] | None:
    tree = _parse(root, "vllm/v1/metrics/buckets.py")
    if tree is None:
        return None
    value = _assigned(tree, "BucketFamilyKey")
    if not (isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and value.value.id == "Literal"):
        return None
    return _strings(value.slice)


def _enum_members(tree: ast.Module, cls_name: str, values: bool) -> list[str] | None:
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls_name), None)
    if cls is None:
        return None
    out = []
    for node in cls.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name.startswith("_"):
                continue
            if values:
                if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                    out.append(node.value.value)
            else:
                out.append(name)
    return out


def attention_backends(root: str) -> list[str] | None:
    tree = _parse(root, "vllm/v1/attention/backends/registry.py")
    return None if tree is None else _enum_members(tree, "AttentionBackendEnum", values=False)


def attention_backends_reset_to_auto(root: str) -> list[str] | None:
    """Keys ``AttentionBackendEnum.X`` of a ``msa_aliases`` dict (vllm/config/attention.py)."""
    tree = _parse(root, "vllm/config/attention.py")
    if tree is None:
        return None
    out = []
    for node in ast.walk(tree):
        target = value = None
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            target, value = node.target.id, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            target, value = node.targets[0].id, node.value
        if target == "msa_aliases" and isinstance(value, ast.Dict):
            out += [key.attr for key in value.keys if isinstance(key, ast.Attribute)
                    and isinstance(key.value, ast.Name) and key.value.id == "AttentionBackendEnum"]
    return sorted(out) or None


def kv_cache_spec_kinds(root: str) -> list[str] | None:
    tree = _parse(root, "vllm/v1/kv_cache_interface.py")
    return None if tree is None else _enum_members(tree, "KVCacheSpecKind", values=True)


def flashinfer_moe_ep_architectures(root: str) -> list[str] | None:
    tree = _parse(root, "vllm/config/kernel.py")
    if tree is None:
        return None
    value = _assigned(tree, "FLASHINFER_MOE_EP_ARCHITECTURES")
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "frozenset" and value.args:
        value = value.args[0]
    got = _strings(value)
    return sorted(got) if got is not None else None


def _constants(tree: ast.Module) -> dict[str, object]:
    """Module-level names bound to a string, or to a frozenset/set/tuple of
    strings and such names."""
    out: dict[str, object] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else \
            node.target if isinstance(node, ast.AnnAssign) else None
        if not isinstance(target, ast.Name) or node.value is None:
            continue
        value = node.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            out[target.id] = value.value
            continue
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("frozenset", "set") \
                and len(value.args) == 1:
            value = value.args[0]
        if isinstance(value, (ast.Set, ast.Tuple, ast.List)):
            items = []
            for e in value.elts:
                if isinstance(e, ast.Constant) and isinstance(e.value, str):
                    items.append(e.value)
                elif isinstance(e, ast.Name) and isinstance(out.get(e.id), str):
                    items.append(out[e.id])
                else:
                    break
            else:
                out[target.id] = sorted(items)
    return out


def _function(tree: ast.Module, name: str) -> ast.FunctionDef | None:
    return next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)


def flashinfer_moe_ep_model_backends(root: str) -> list[str] | None:
    tree = _parse(root, "vllm/config/kernel.py")
    fn = None if tree is None else _function(tree, "validate_flashinfer_moe_ep_model")
    if fn is None:
        return None
    consts = _constants(tree)
    first = next((n for n in fn.body if isinstance(n, ast.If)), None)
    test = first.test if first is not None else None
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.comparators[0], ast.Name)):
        return None
    got = consts.get(test.comparators[0].id)
    if isinstance(test.ops[0], ast.NotEq) and isinstance(got, str):
        return [got]
    if isinstance(test.ops[0], ast.NotIn) and isinstance(got, list):
        return got
    return None


def flashinfer_moe_ep_backends(root: str) -> list[str] | None:
    tree = _parse(root, "vllm/config/kernel.py")
    if tree is None or _function(tree, "bind_passthrough_all2all_backend") is None:
        return None
    got = _constants(tree).get("FLASHINFER_MOE_EP_BACKENDS")
    return got if isinstance(got, list) else None


_TABLES = {
    "bucket_families": bucket_families,
    "attention_backends": attention_backends,
    "attention_backends_reset_to_auto": attention_backends_reset_to_auto,
    "kv_cache_spec_kinds": kv_cache_spec_kinds,
    "flashinfer_moe_ep_architectures": flashinfer_moe_ep_architectures,
    "flashinfer_moe_ep_model_backends": flashinfer_moe_ep_model_backends,
    "flashinfer_moe_ep_backends": flashinfer_moe_ep_backends,
}


def scan_release(root: str) -> dict:
    out = {}
    for name, fn in _TABLES.items():
        got = fn(root)
        if got is not None:
            out[name] = got
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the table would change")
    args = ap.parse_args(argv)
    base = releases_dir()
    releases = sorted((v for v in os.listdir(base) if os.path.isdir(os.path.join(base, v, "vllm"))), key=version_key)
    table = {"about": "Name lists vLLM's config validators check values against, per release; "
                      "generated by tools/knowledge/config_names.py",
             "releases": {v: scan_release(os.path.join(base, v)) for v in releases}}
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    if args.check:
        with open(OUT, encoding="utf-8") as f:
            return 0 if f.read() == text else 1
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    for v, tables in table["releases"].items():
        print(v, " ".join(f"{k}={len(names)}" for k, names in tables.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
