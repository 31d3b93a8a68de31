"""A JSON config option (``--compilation-config``, ``--profiler-config``,
``--attention-config``, ...) as its config class receives it, and whether
pydantic surely accepts each written key before the class's own validators
run.

A rule that mirrors a config class's validator reads the object with
``config_object``: None when the file does not show it, or when a written key
is not a field of the class or has a value its field's type refuses (vLLM
stops at that first, with its own message, and another rule reports it).
List-valued fields are checked item by item: ``torch_profiler_activities:
["CPU"]`` is a list of allowed values, not a value outside them.
"""

from __future__ import annotations

import json
import math
import re
from typing import TYPE_CHECKING

from .flags import config_key, json_of

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Flag, Invocation

_LITERAL = re.compile(r"Literal\[([^\]]*)\]")


def _choices(type_text: str) -> list | None:
    m = _LITERAL.search(type_text)
    if not m:
        return None
    try:
        return json.loads("[" + m.group(1).replace("'", '"') + "]")
    except ValueError:
        return None


def _split_union(type_text: str) -> list[str]:
    """The members of ``A | B | None`` at the top level (brackets respected)."""
    out, depth, cur = [], 0, ""
    for ch in type_text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "|" and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        cur += ch
    out.append(cur.strip())
    return out


def value_fits(type_text: str | None, value: object) -> bool:
    """Whether pydantic surely accepts ``value`` for a field of type
    ``type_text`` (as the option schema spells it).  Types servelint does not
    model (enums, nested configs) count as accepting: their own rules judge
    them."""
    if not type_text:
        return True
    t = type_text.strip()
    if t.startswith("Optional[") and t.endswith("]"):
        if value is None:
            return True
        t = t[len("Optional["):-1]
    members = _split_union(t)
    if len(members) > 1:
        if value is None and "None" in members:
            return True
        return any(value_fits(m, value) for m in members if m != "None")
    if t == "None":
        return value is None
    if t.startswith("Union["):
        return True  # Literal-or-str and the like: any string is a candidate
    if t.startswith("Literal["):
        choices = _choices(t)
        return choices is None or (not isinstance(value, bool) and value in choices) or (
            isinstance(value, bool) and any(c is value for c in choices))
    if t.startswith(("list[", "set[")) and t.endswith("]"):
        if not isinstance(value, list):
            return False
        inner = t[t.index("[") + 1:-1]
        return all(value_fits(inner, v) for v in value)
    if t == "bool":
        return isinstance(value, bool)
    if t == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if t == "str":
        return isinstance(value, str)
    if t.startswith("dict"):
        return isinstance(value, dict)
    return True


def _within(value: object, constraints: dict | None) -> bool:
    if not constraints or not isinstance(value, (int, float)) or isinstance(value, bool):
        return True
    for op, ok in (("gt", lambda b: value > b), ("ge", lambda b: value >= b),
                   ("lt", lambda b: value < b), ("le", lambda b: value <= b)):
        bound = constraints.get(op)
        if bound is not None and not ok(bound):
            return False
    return True


def fields_of(inv: "Invocation", dest: str) -> dict:
    """The fields of JSON option ``dest``'s config class in the launch's
    release (from the option schema), or {}."""
    opt = inv.knowledge.by_dest.get(dest)
    info = getattr(opt, "json", None) or {}
    return info.get("fields") or {}


def config_object(inv: "Invocation", dest: str) -> "tuple[dict, Flag | None] | None":
    """JSON option ``dest``'s object as written (dotted keys merged) and its
    last flag (None when not written: ``{}``), when the file shows it and
    every key is a field whose type accepts the value; else None."""
    cfg = json_of(inv, dest)
    if not cfg.known or not isinstance(cfg.value, dict):
        return None
    fields = fields_of(inv, dest)
    for key, value in cfg.value.items():
        if not isinstance(key, str):
            return None
        if fields:
            info = fields.get(config_key(inv.version, dest, key))
            if info is None:
                return None
            if not value_fits(info.get("type"), value) or not _within(value, info.get("constraints")):
                return None
    return cfg.value, (cfg.flags[-1] if cfg.flags else None)


def has_field(inv: "Invocation", dest: str, name: str) -> bool:
    """Whether the release's config class of ``dest`` has field ``name``."""
    return name in fields_of(inv, dest)


def config_object_before(inv: "Invocation", dest: str, before: dict) -> "tuple[dict, Flag | None] | None":
    """``config_object``, with the values of the keys in ``before`` passed
    through their function first (a field's ``mode="before"`` validator,
    such as ``KernelConfig._normalize_moe_backend``), as pydantic sees them."""
    cfg = json_of(inv, dest)
    if not cfg.known or not isinstance(cfg.value, dict):
        return None
    fields = fields_of(inv, dest)
    out = {}
    for key, value in cfg.value.items():
        if not isinstance(key, str):
            return None
        if key in before:
            value = before[key](value)
        if fields:
            info = fields.get(config_key(inv.version, dest, key))
            if info is None:
                return None
            if not value_fits(info.get("type"), value) or not _within(value, info.get("constraints")):
                return None
        out[key] = value
    return out, (cfg.flags[-1] if cfg.flags else None)
