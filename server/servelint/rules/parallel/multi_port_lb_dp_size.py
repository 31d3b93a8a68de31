"""SL556: `--data-parallel-multi-port-external-lb` without data parallelism."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import multi_port_args

_CHECK = VllmCheck("parallel.multi_port_dp", '--data-parallel-size > 1')


class MultiPortLbDpSize(Rule):
    """`--data-parallel-multi-port-external-lb` without data parallelism.

    ## What it does
    Reports a `vllm serve --data-parallel-multi-port-external-lb` launch that the multi-port
    supervisor refuses: `--data-parallel-multi-port-external-lb` without data parallelism.

    ## Why
    The supervisor runs several data-parallel ranks; with one there is nothing to supervise. vLLM
    checks the arguments of the supervisor before anything else starts and stops with "Error:
    --data-parallel-multi-port-external-lb requires --data-parallel-size > 1".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-multi-port-external-lb
    ```

    ## Fix
    Set `--data-parallel-size` (and `--data-parallel-size-local`), or drop the flag.

    ## Evidence
    The flags as written and the release's defaults; a value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `validate_multi_port_external_lb_args`, called by `validate_parsed_serve_args`, after
    `multi-port-lb-exclusive` (SL555).
    """

    code = "SL556"
    name = "multi-port-lb-dp-size"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-multi-port-external-lb"
    requires = ("--data-parallel-multi-port-external-lb",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.invocation.last("data_parallel_multi_port_external_lb") is None:
            return
        a = multi_port_args(ctx, ('dp',))
        if a is None or not (a.dp is not None and a.dp < 2):
            return
        anchor = known_flag(ctx.invocation, "data_parallel_multi_port_external_lb")
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key), _CHECK.key)
