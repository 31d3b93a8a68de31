"""What the kernel rules share: the MoE backend ``KernelConfig`` ends up
with.

``EngineArgs.create_engine_config`` copies ``--moe-backend`` over
``--kernel-config``'s ``moe_backend`` when it is not ``auto`` (both
lower-cased, ``-`` read as ``_``: the flag's type and the field's
before-validator); read in vllm/engine/arg_utils.py of 0.25.0-0.33.0.
"""

from __future__ import annotations

from ...derive.config_json import config_object_before
from ...derive.flags import value_of
from ...derive.view import memo


def _normal(value: object) -> object:
    return value.lower().replace("-", "_") if isinstance(value, str) else value


def moe_backend(inv) -> "tuple[str, object] | None":
    """(the MoE backend, the flag that set it) as ``KernelConfig`` holds it;
    the flag is None for the default ``auto``.  None when the file does not
    show it."""
    return memo(inv, ("kernel.moe_backend",), lambda: _moe_backend(inv))


def _moe_backend(inv) -> "tuple[str, object] | None":
    if inv.last("moe_backend") is not None:
        v = value_of(inv, "moe_backend")
        if not v.known or not isinstance(v.value, str) or not v.flags:
            return None
        name = _normal(v.value)
        if name != "auto":
            return name, v.flags[-1]
    got = config_object_before(inv, "kernel_config", {"moe_backend": _normal})
    if got is None:
        return None
    cfg, flag = got
    name = _normal(cfg.get("moe_backend", "auto"))
    if not isinstance(name, str):
        return None
    return name, (flag if "moe_backend" in cfg else None)
