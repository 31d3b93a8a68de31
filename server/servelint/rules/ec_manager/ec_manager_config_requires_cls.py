"""SL913: `--ec-manager-config` `manager_config` without a manager class."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_keys_known, json_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("ec_manager.requires_cls", "manager_config requires encoder_cache_manager_cls to be set.",
                   "vllm/config/ec_manager_config.py")


class EcManagerConfigRequiresCls(Rule):
    """`--ec-manager-config` with a `manager_config` and no `encoder_cache_manager_cls`.

    ## What it does
    Reports a `--ec-manager-config` whose `manager_config` is a non-empty
    object while `encoder_cache_manager_cls` is unset or null.

    ## Why
    `manager_config` is handed to the custom encoder-cache manager class;
    without the class it configures nothing. `EncoderCacheManagerConfig`
    stops the launch while the engine arguments are built: "manager_config
    requires encoder_cache_manager_cls to be set."

    ## Example
    ```sh
    vllm serve Qwen/Qwen2.5-VL-7B-Instruct --ec-manager-config '{"manager_config": {"capacity": 8}}'
    ```

    ## Fix
    Add `"encoder_cache_manager_cls": "my_pkg.MyEncoderCacheManager"`, or
    drop `manager_config`.

    ## Evidence
    The JSON as written (dotted keys merged); an unknown key or a value
    servelint cannot read keeps the rule silent.

    ## vLLM source
    `EncoderCacheManagerConfig.__post_init__` (from 0.28.0).
    """

    code = "SL913"
    name = "ec-manager-config-requires-cls"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--ec-manager-config"
    requires = ("--ec-manager-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if not inv.flags_for("ec_manager_config"):
            return
        cfg = json_of(inv, "ec_manager_config")
        if not cfg.known or cfg.how != "flag" or not json_keys_known(inv, "ec_manager_config", cfg.value):
            return
        obj = cfg.value
        manager = obj.get("manager_config")
        if not isinstance(manager, dict) or not manager or obj.get("encoder_cache_manager_cls") is not None:
            return
        yield finding(ctx, cfg.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key)
