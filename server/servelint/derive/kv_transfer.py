"""``KVTransferConfig``: whether the launch runs a KV connector."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import UNKNOWN, Derived
from .flags import json_of, last_flag, value_of

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Invocation

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
