"""SL580: `--attention-backend` and `--attention-config` `backend` both set."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import json_key

_CHECK = VllmCheck("engine_args.attention_backend_exclusive", "attention_backend and attention_config.backend are mutually exclusive",
                   "vllm/engine/arg_utils.py")


class AttentionBackendMutuallyExclusive(Rule):
    """`--attention-backend` and `--attention-config` `backend` both set.

    ## What it does
    Reports `--attention-backend` in a launch whose `--attention-config` also sets
    `backend` (as JSON or as a dotted key such as
    `--attention-config.backend`) to something other than null.

    ## Why
    `--attention-backend` is a shorthand for the `backend` key of `--attention-config`; vLLM does not choose between two values: `EngineArgs.create_engine_config` stops with "attention_backend and attention_config.backend are mutually exclusive".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --attention-backend FLASH_ATTN --attention-config.backend FLASHINFER
    ```

    ## Fix
    Keep one of the two.

    ## Evidence
    Both as written; a JSON value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `EngineArgs.create_engine_config`, where it moves the flag into its config.
    """

    code = "SL580"
    name = "attention-backend-mutually-exclusive"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--attention-backend"
    partners = ("--attention-config",)
    requires = ("--attention-backend", "--attention-config")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.last("attention_backend") is None or not inv.flags_for("attention_config"):
            return
        shorthand = value_of(inv, "attention_backend")
        if shorthand.how != "flag" or shorthand.value is None:
            return
        got = json_key(ctx, "attention_config", 'backend')
        if got is None or got[1] is None:
            return
        yield finding(ctx, shorthand.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key,
                      related_to=related(ctx, [got[0]], "also set by {flag}"))
