"""SL912: an EC connector in `--ec-transfer-config` without an `ec_role`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_keys_known, json_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("ec_transfer.requires_ec_role", "Please specify ec_role when ec_connector is set, supported roles",
                   "vllm/config/ec_transfer.py")
# get_args(ECRole), flattened (vllm/config/ec_transfer.py, the same in 0.25.0-0.33.0).
_ROLES = "('ec_producer', 'ec_both', 'ec_consumer')"


class EcConnectorRequiresEcRole(Rule):
    """`--ec-transfer-config` with an `ec_connector` and no `ec_role`.

    ## What it does
    Reports a `--ec-transfer-config` that names an `ec_connector` but sets
    no `ec_role` (or sets it to null).

    ## Why
    An encoder-cache connector either produces encoder outputs (an
    encoder-only instance), consumes them, or both. The option is parsed
    into `ECTransferConfig` by argparse, which stops with "argument
    --ec-transfer-config: 1 validation error for ECTransferConfig ...
    Please specify ec_role when ec_connector is set, supported roles are
    ('ec_producer', 'ec_both', 'ec_consumer')".

    ## Example
    ```sh
    vllm serve Qwen/Qwen2.5-VL-7B-Instruct --ec-transfer-config '{"ec_connector": "ECExampleConnector"}'
    ```

    ## Fix
    Add `"ec_role": "ec_producer"`, `"ec_consumer"` or `"ec_both"`.

    ## Evidence
    The JSON as written (dotted keys merged). A role outside the three is
    refused by pydantic's literal check first (invalid-value); an unknown
    key or a value servelint cannot read keeps the rule silent.

    ## vLLM source
    `ECTransferConfig.__post_init__`, run while argparse converts the
    option.
    """

    code = "SL912"
    name = "ec-connector-requires-ec-role"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--ec-transfer-config"
    requires = ("--ec-transfer-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if not inv.flags_for("ec_transfer_config"):
            return
        cfg = json_of(inv, "ec_transfer_config")
        if not cfg.known or cfg.how != "flag" or not json_keys_known(inv, "ec_transfer_config", cfg.value):
            return
        obj = cfg.value
        if not isinstance(obj.get("ec_connector"), str) or obj.get("ec_role") is not None:
            return
        yield finding(ctx, cfg.flags[-1], vllm_message(ctx, _CHECK.key, _ROLES), _CHECK.key)
