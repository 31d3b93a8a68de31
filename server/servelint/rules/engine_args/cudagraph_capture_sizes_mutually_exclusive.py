"""SL582: `--cudagraph-capture-sizes` and `--compilation-config` `cudagraph_capture_sizes` both set."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import json_key

_CHECK = VllmCheck("engine_args.cudagraph_capture_sizes_exclusive", "cudagraph_capture_sizes and compilation_config.cudagraph_capture_sizes are mutually exclusive",
                   "vllm/engine/arg_utils.py")


class CudagraphCaptureSizesMutuallyExclusive(Rule):
    """`--cudagraph-capture-sizes` and `--compilation-config` `cudagraph_capture_sizes` both set.

    ## What it does
    Reports `--cudagraph-capture-sizes` in a launch whose `--compilation-config` also sets
    `cudagraph_capture_sizes` (as JSON or as a dotted key such as
    `--compilation-config.cudagraph_capture_sizes`) to something other than null.

    ## Why
    `--cudagraph-capture-sizes` is a shorthand for the key of `--compilation-config` (`-cc`); vLLM does not choose between two lists: `EngineArgs.create_engine_config` stops with "cudagraph_capture_sizes and compilation_config.cudagraph_capture_sizes are mutually exclusive".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --cudagraph-capture-sizes 1 2 4 -cc.cudagraph_capture_sizes '[1,2,4,8]'
    ```

    ## Fix
    Keep one of the two.

    ## Evidence
    Both as written; a JSON value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `EngineArgs.create_engine_config`, where it moves the flag into its config.
    """

    code = "SL582"
    name = "cudagraph-capture-sizes-mutually-exclusive"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--cudagraph-capture-sizes"
    partners = ("--compilation-config",)
    requires = ("--compilation-config", "--cudagraph-capture-sizes")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.last("cudagraph_capture_sizes") is None or not inv.flags_for("compilation_config"):
            return
        shorthand = value_of(inv, "cudagraph_capture_sizes")
        if shorthand.how != "flag" or shorthand.value is None:
            return
        got = json_key(ctx, "compilation_config", 'cudagraph_capture_sizes')
        if got is None or got[1] is None:
            return
        yield finding(ctx, shorthand.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key,
                      related_to=related(ctx, [got[0]], "also set by {flag}"))
