"""``KVTransferConfig``: whether the launch runs a KV connector."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import UNKNOWN, Derived
from .flags import json_of, last_flag, value_of

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Invocation
    from .view import View

_KV_ROLES = ("kv_producer", "kv_consumer", "kv_both")


def kv_connector(inv: "Invocation") -> Derived:
    """``kv_transfer_config.is_kv_transfer_instance``: a connector with a role.

    ``KVTransferConfig.is_kv_transfer_instance`` is ``kv_connector is not None
    and kv_role in KVRole`` (config/kv_transfer.py, 0.27.1-0.29.0 :109,
    0.30.0 :143, 0.31.0 :142, 0.32.0/0.33.0 :127).  ``--kv-offloading-size``
    (any value) makes ``VllmConfig._post_init_kv_transfer_config`` create one:
    OffloadingConnector (or LMCacheMPConnector) with ``kv_role="kv_both"``
    (config/vllm.py, 0.27.1 :893, 0.28.0 :948, 0.29.0 :964, 0.30.0 :1032,
    0.31.0 :1124, 0.32.0 :1099, 0.33.0 :1151), run in ``__post_init__``
    before the validators.
    """
    flags: list = []
    if last_flag(inv, "kv_offloading_size") is not None:
        size = value_of(inv, "kv_offloading_size")
        if size.how == "unknown":
            return UNKNOWN
        if size.value is not None:  # "None" leaves offloading off
            return Derived(True, "flag", "--kv-offloading-size creates a KV offloading connector", size.flags)
    cfg = json_of(inv, "kv_transfer_config")
    if not cfg.known:
        return UNKNOWN
    value = cfg.value
    flags.extend(cfg.flags)
    connector = value.get("kv_connector")
    role = value.get("kv_role")
    if connector is None:
        return Derived(False, cfg.how, "", tuple(flags))
    if role not in _KV_ROLES:
        return UNKNOWN  # KVTransferConfig rejects a connector without a valid role
    return Derived(True, "flag", f"--kv-transfer-config sets connector {connector} ({role})", tuple(flags))


def connector_name(ctx: "View") -> Derived:
    """``kv_transfer_config.kv_connector`` once ``VllmConfig.
    _post_init_kv_transfer_config`` has run (None: no connector).

    ``--kv-offloading-size`` (not "None") replaces the connector: with
    ``--kv-offloading-backend native`` (the default) ``OffloadingConnector``,
    or ``SimpleCPUOffloadConnector`` when ``VLLM_USE_SIMPLE_KV_OFFLOAD`` is a
    non-zero integer; with ``lmcache`` ``LMCacheMPConnector`` (config/vllm.py,
    the same in 0.26.0-0.33.0; 0.26.0 :838, 0.33.0 :1151).  Otherwise the
    ``kv_connector`` of ``--kv-transfer-config``, which ``KVTransferConfig``
    accepts only with a ``kv_role``.
    """
    inv = ctx.invocation
    if last_flag(inv, "kv_offloading_size") is not None:
        size = value_of(inv, "kv_offloading_size")
        if size.how == "unknown":
            return UNKNOWN
        if size.value is not None:
            backend = value_of(inv, "kv_offloading_backend")
            flags = tuple(size.flags) + tuple(backend.flags)
            if backend.value == "lmcache":
                return Derived("LMCacheMPConnector", "flag", "--kv-offloading-backend lmcache", flags)
            if backend.value != "native":
                return UNKNOWN
            var = inv.env.get("VLLM_USE_SIMPLE_KV_OFFLOAD")
            if var is None:
                return Derived("OffloadingConnector", "flag", "the connector --kv-offloading-size creates", flags)
            if var.value is None or not var.exact:
                return UNKNOWN
            try:
                simple = bool(int(var.value))
            except ValueError:
                return UNKNOWN
            name = "SimpleCPUOffloadConnector" if simple else "OffloadingConnector"
            why = f"the connector --kv-offloading-size creates with VLLM_USE_SIMPLE_KV_OFFLOAD={var.value}"
            return Derived(name, "flag", why, flags)
    cfg = json_of(inv, "kv_transfer_config")
    if not cfg.known:
        return UNKNOWN
    name = cfg.value.get("kv_connector")
    if name is None:
        return Derived(None, "default") if not cfg.flags else Derived(None, cfg.how, "", tuple(cfg.flags))
    if not isinstance(name, str) or cfg.value.get("kv_role") not in _KV_ROLES:
        return UNKNOWN
    return Derived(name, "flag", "", tuple(cfg.flags))
