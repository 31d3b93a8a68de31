"""SL911: a KV connector in `--kv-transfer-config` without a `kv_role`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_keys_known, json_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("kv_transfer.requires_kv_role", "Please specify kv_role when kv_connector is set, supported roles",
                   "vllm/config/kv_transfer.py")
# get_args(KVRole): Literal[Literal["kv_producer", "kv_both"], Literal["kv_consumer", "kv_both"]]
# flattened (vllm/config/kv_transfer.py, the same in 0.25.0-0.33.0).
_ROLES = "('kv_producer', 'kv_both', 'kv_consumer')"


class KvConnectorRequiresKvRole(Rule):
    """`--kv-transfer-config` with a `kv_connector` and no `kv_role`.

    ## What it does
    Reports a `--kv-transfer-config` that names a `kv_connector` but sets
    no `kv_role` (or sets it to null).

    ## Why
    A KV connector either produces KV cache (prefill), consumes it (decode)
    or both; vLLM does not guess. The option is parsed into
    `KVTransferConfig` by argparse, which stops with "argument
    --kv-transfer-config: 1 validation error for KVTransferConfig ... Please
    specify kv_role when kv_connector is set, supported roles are
    ('kv_producer', 'kv_both', 'kv_consumer')".

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-transfer-config '{"kv_connector": "NixlConnector"}'
    ```

    ## Fix
    Add `"kv_role": "kv_both"` (or `kv_producer` / `kv_consumer` for a
    disaggregated prefill or decode instance).

    ## Evidence
    The JSON as written (dotted keys merged). A role outside the three is
    refused by pydantic's literal check first (invalid-value); an unknown
    key or a value servelint cannot read keeps the rule silent.

    ## vLLM source
    `KVTransferConfig.__post_init__`, run while argparse converts the
    option.
    """

    code = "SL911"
    name = "kv-connector-requires-kv-role"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
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
        if not isinstance(obj.get("kv_connector"), str) or obj.get("kv_role") is not None:
            return
        yield finding(ctx, cfg.flags[-1], vllm_message(ctx, _CHECK.key, _ROLES), _CHECK.key)
