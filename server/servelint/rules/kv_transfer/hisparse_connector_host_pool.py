"""SL914: a HiSparse connector without one positive `host_pool_gib`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_keys_known, json_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_SINGLE = VllmCheck("kv_transfer.hisparse_single", "Only one HiSparseConnector may be configured",
                    "vllm/config/kv_transfer.py")
_REQUIRED = VllmCheck("kv_transfer.hisparse_host_pool_required", "HiSparseConnector requires host_pool_gib",
                      "vllm/config/kv_transfer.py", whole=True)
_POSITIVE = VllmCheck("kv_transfer.hisparse_host_pool_positive", "HiSparseConnector host_pool_gib must be positive",
                      "vllm/config/kv_transfer.py")


def _number(value) -> float | None:
    """``float(value)`` as vLLM computes it; None when it would raise."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        return float(value)
    except ValueError:
        return None


class HisparseConnectorHostPool(Rule):
    """`HiSparseConnector` without exactly one positive `host_pool_gib`.

    ## What it does
    Reports a `--kv-transfer-config` whose `HiSparseConnector` (directly,
    or as a child of `MultiConnector`) has no `host_pool_gib` in its
    `kv_connector_extra_config`, a `host_pool_gib` of 0 or below, or a
    `MultiConnector` listing more than one `HiSparseConnector`.

    ## Why
    HiSparse keeps the sparse-attention KV cache in a pinned host pool of
    `host_pool_gib` GiB. vLLM reads it when it lays out the KV cache,
    after loading the model, and stops: "HiSparseConnector requires
    host_pool_gib", "HiSparseConnector host_pool_gib must be positive" or
    "Only one HiSparseConnector may be configured".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3.2 --kv-transfer-config '{"kv_connector": "HiSparseConnector", "kv_role": "kv_both"}'
    ```

    ## Fix
    Add `"kv_connector_extra_config": {"host_pool_gib": 64}` (a positive
    size) to the one HiSparse connector.

    ## Evidence
    The JSON as written (dotted keys merged); an unknown key, a value
    `float()` cannot convert or a value servelint cannot read keeps the rule
    silent. The failure comes at engine startup (the config checks of
    HiSparse itself, CUDA and the model, run first).

    ## vLLM source
    `hisparse_host_pool_gib` (vllm/config/kv_transfer.py), called by
    `get_hisparse_host_pool_bytes` (vllm/v1/hisparse/layout.py).
    """

    code = "SL914"
    name = "hisparse-connector-host-pool"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_SINGLE, _REQUIRED, _POSITIVE)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--kv-transfer-config"
    requires = ("--kv-transfer-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if not inv.flags_for("kv_transfer_config"):
            return
        cfg = json_of(inv, "kv_transfer_config")
        if not cfg.known or cfg.how != "flag" or not json_keys_known(inv, "kv_transfer_config", cfg.value):
            return
        obj = cfg.value
        if obj.get("kv_role") is None:
            return  # SL911: refused while parsing
        extra = obj.get("kv_connector_extra_config", {})
        if not isinstance(extra, dict):
            return
        if obj.get("kv_connector") == "MultiConnector":
            children = extra.get("connectors", [])
            if not isinstance(children, list) or not all(isinstance(c, dict) for c in children):
                return
        else:
            children = [{"kv_connector": obj.get("kv_connector"), "kv_connector_extra_config": extra}]
        entries = [c.get("kv_connector_extra_config", {}) for c in children if c.get("kv_connector") == "HiSparseConnector"]
        if not entries:
            return
        if len(entries) > 1:
            check = _SINGLE
        else:
            if not isinstance(entries[0], dict):
                return
            pool = entries[0].get("host_pool_gib")
            if pool is None:
                check = _REQUIRED
            else:
                size = _number(pool)
                if size is None or size > 0:
                    return
                check = _POSITIVE
        yield finding(ctx, cfg.flags[-1], vllm_message(ctx, check.key), check.key)
