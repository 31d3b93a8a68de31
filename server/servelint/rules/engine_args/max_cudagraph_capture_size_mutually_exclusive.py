"""SL583: `--max-cudagraph-capture-size` and `--compilation-config` `max_cudagraph_capture_size` both set."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import json_key

_CHECK = VllmCheck("engine_args.max_cudagraph_capture_size_exclusive", "max_cudagraph_capture_size and compilation_config.max_cudagraph_capture_size are mutually exclusive",
                   "vllm/engine/arg_utils.py")


class MaxCudagraphCaptureSizeMutuallyExclusive(Rule):
    """`--max-cudagraph-capture-size` and `--compilation-config` `max_cudagraph_capture_size` both set.

    ## What it does
    Reports `--max-cudagraph-capture-size` in a launch whose `--compilation-config` also sets
    `max_cudagraph_capture_size` (as JSON or as a dotted key such as
    `--compilation-config.max_cudagraph_capture_size`) to something other than null.

    ## Why
    `--max-cudagraph-capture-size` is a shorthand for the key of `--compilation-config` (`-cc`); vLLM does not choose between two values: `EngineArgs.create_engine_config` stops with "max_cudagraph_capture_size and compilation_config.max_cudagraph_capture_size are mutually exclusive".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --max-cudagraph-capture-size 256 -cc.max_cudagraph_capture_size 512
    ```

    ## Fix
    Keep one of the two.

    ## Evidence
    Both as written; a JSON value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `EngineArgs.create_engine_config`, where it moves the flag into its config.
    """

    code = "SL583"
    name = "max-cudagraph-capture-size-mutually-exclusive"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--max-cudagraph-capture-size"
    partners = ("--compilation-config",)
    requires = ("--compilation-config", "--max-cudagraph-capture-size")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.last("max_cudagraph_capture_size") is None or not inv.flags_for("compilation_config"):
            return
        shorthand = value_of(inv, "max_cudagraph_capture_size")
        if shorthand.how != "flag" or shorthand.value is None:
            return
        got = json_key(ctx, "compilation_config", 'max_cudagraph_capture_size')
        if got is None or got[1] is None:
            return
        yield finding(ctx, shorthand.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key,
                      related_to=related(ctx, [got[0]], "also set by {flag}"))
