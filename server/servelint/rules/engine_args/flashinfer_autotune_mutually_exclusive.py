"""SL581: `--enable-flashinfer-autotune` and `--kernel-config` `enable_flashinfer_autotune` both set."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import json_key

_CHECK = VllmCheck("engine_args.flashinfer_autotune_exclusive", "enable_flashinfer_autotune and kernel_config.enable_flashinfer_autotune are mutually exclusive",
                   "vllm/engine/arg_utils.py")


class FlashinferAutotuneMutuallyExclusive(Rule):
    """`--enable-flashinfer-autotune` and `--kernel-config` `enable_flashinfer_autotune` both set.

    ## What it does
    Reports `--enable-flashinfer-autotune` in a launch whose `--kernel-config` also sets
    `enable_flashinfer_autotune` (as JSON or as a dotted key such as
    `--kernel-config.enable_flashinfer_autotune`) to something other than null.

    ## Why
    `--enable-flashinfer-autotune` (or `--no-enable-flashinfer-autotune`) is a shorthand for the key of `--kernel-config`; vLLM does not choose between two values: `EngineArgs.create_engine_config` stops with "enable_flashinfer_autotune and kernel_config.enable_flashinfer_autotune are mutually exclusive".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --enable-flashinfer-autotune --kernel-config.enable_flashinfer_autotune false
    ```

    ## Fix
    Keep one of the two.

    ## Evidence
    Both as written; a JSON value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `EngineArgs.create_engine_config`, where it moves the flag into its config.
    """

    code = "SL581"
    name = "flashinfer-autotune-mutually-exclusive"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enable-flashinfer-autotune"
    partners = ("--kernel-config",)
    requires = ("--enable-flashinfer-autotune", "--kernel-config")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.last("enable_flashinfer_autotune") is None or not inv.flags_for("kernel_config"):
            return
        shorthand = value_of(inv, "enable_flashinfer_autotune")
        if shorthand.how != "flag" or shorthand.value is None:
            return
        got = json_key(ctx, "kernel_config", 'enable_flashinfer_autotune')
        if got is None or got[1] is None:
            return
        yield finding(ctx, shorthand.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key,
                      related_to=related(ctx, [got[0]], "also set by {flag}"))
