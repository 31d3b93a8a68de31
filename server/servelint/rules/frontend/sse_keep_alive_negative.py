"""SL708: a negative `--sse-keep-alive-interval`."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("sse_keep_alive.negative", "--sse-keep-alive-interval must be a non-negative integer ")


class SseKeepAliveNegative(Rule):
    """A negative `--sse-keep-alive-interval`.

    ## What it does
    Reports `--sse-keep-alive-interval` below 0.

    ## Why
    The interval is the number of seconds between keep-alive comments on a
    streaming response; 0 turns them off. `vllm serve` checks it before
    loading anything and stops with "Error: --sse-keep-alive-interval must
    be a non-negative integer (0 disables keep-alive comments)."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --sse-keep-alive-interval -1
    ```

    ## Fix
    Give a number of seconds (`--sse-keep-alive-interval 15`), or 0 to turn
    keep-alive comments off.

    ## Evidence
    The last `--sse-keep-alive-interval` as written; a value only known at
    run time is not judged.

    ## vLLM source
    `validate_parsed_serve_args`.
    """

    code = "SL708"
    name = "sse-keep-alive-negative"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--sse-keep-alive-interval"
    requires = ("--sse-keep-alive-interval",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        v = value_of(ctx.invocation, "sse_keep_alive_interval")
        if v.how != "flag" or not is_int(v.value) or v.value >= 0:
            return
        yield finding(ctx, v.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key)
