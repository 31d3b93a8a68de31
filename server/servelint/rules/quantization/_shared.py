"""What the `--quantization-config` rules share: the object as
``QuantizationConfigArgs`` receives it and what its field validators make
of `linear`, `moe` and `targets` (vllm/config/quantization.py,
``_coerce_spec``, ``_coerce_quant_key``, ``_validate_targets``)."""

from __future__ import annotations

import re

from ...derive.flags import json_keys_known, json_of
from ...derive.quant_config import NO_LINEAR_SPEC, has_targets, key_names, shorthands
from ..base import Context

_SPEC_KEYS = frozenset({"weight", "activation"})


def quant_config(ctx: Context):
    """The written `--quantization-config` object (a Derived) when every
    top-level key is a field of ``QuantizationConfigArgs`` and the release
    has the name tables; None otherwise (not written, not known)."""
    inv = ctx.invocation
    if not inv.flags_for("quantization_config"):
        return None
    cfg = json_of(inv, "quantization_config")
    if not cfg.known or cfg.how != "flag" or not cfg.value:
        return None
    if not json_keys_known(inv, "quantization_config", cfg.value):
        return None
    if key_names(ctx.version) is None or shorthands(ctx.version) is None:
        return None
    return cfg


def name_problems(ctx: Context, field: str, value) -> list[tuple[str, object]] | None:
    """The errors ``_coerce_spec``/``_coerce_quant_key`` raise for `linear`
    or `moe` = ``value``, in pydantic's order: ``("key_type", type name)``,
    ``("unknown", name)``, ``("no_spec", shorthand)``; [] when it is valid;
    None when pydantic refuses it otherwise (another shape)."""
    names = key_names(ctx.version) or ()
    if value is None:
        return []
    if isinstance(value, str):
        if value in (shorthands(ctx.version) or ()):
            return [("no_spec", value)] if field == "linear" and value in NO_LINEAR_SPEC else []
        return [] if value in names else [("unknown", value)]
    if not isinstance(value, dict) or not set(value) <= _SPEC_KEYS:
        return None
    out: list[tuple[str, object]] = []
    for key in ("weight", "activation"):
        v = value.get(key)
        if v is None:
            continue
        if not isinstance(v, str):
            out.append(("key_type", type(v).__name__))
        elif v not in names:
            out.append(("unknown", v))
    return out


def targets_problem(ctx: Context, targets) -> tuple[str, object] | None | bool:
    """What ``_validate_targets`` raises for ``targets``: ``("type", type
    name)`` or ``("shorthand", (pattern, value))`` (the first bad pair);
    False when it passes; None when servelint cannot tell (a ``re:`` pattern
    Python's ``re`` cannot compile: vLLM compiles it with the ``regex``
    module, whose grammar is wider)."""
    if targets is None:
        return False
    if not isinstance(targets, dict):
        return ("type", type(targets).__name__)
    valid = shorthands(ctx.version) or ()
    for pattern, value in targets.items():
        if not isinstance(value, str) or value not in valid:
            return ("shorthand", (pattern, value))
        if pattern.startswith("re:"):
            try:
                re.compile(pattern[3:])
            except re.error:
                return None
    return False


def fields_valid(ctx: Context, obj: dict) -> bool:
    """Whether every field of the object passes its own validation (the
    model validator runs only then)."""
    for field in ("linear", "moe"):
        if name_problems(ctx, field, obj.get(field)) != []:
            return False
    ignore = obj.get("ignore", [])
    if not isinstance(ignore, list) or not all(isinstance(i, str) for i in ignore):
        return False
    if "targets" in obj and not has_targets(ctx.version):
        return False
    return targets_problem(ctx, obj.get("targets")) is False


def type_error(ctx: Context, obj: dict) -> str | None:
    """Where a ``TypeError`` of ``_coerce_quant_key`` or ``_validate_targets``
    comes from ("linear.activation", "targets"), or None.  pydantic does
    not turn a ``TypeError`` into a validation error: it escapes, and
    argparse reports only "argument --quantization-config: invalid
    _optional_type value: ..." (oracle 0.25.0, 0.33.0), hiding every other
    problem of the object."""
    for field in ("linear", "moe"):
        value = obj.get(field)
        if isinstance(value, dict) and set(value) <= _SPEC_KEYS:
            for key in ("weight", "activation"):
                v = value.get(key)
                if v is not None and not isinstance(v, str):
                    return f"{field}.{key}"
    if has_targets(ctx.version) and obj.get("targets") is not None and not isinstance(obj.get("targets"), dict):
        return "targets"
    return None
