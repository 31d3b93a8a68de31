"""SL560: Multi-port supervised ranks past `--data-parallel-size`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import multi_port_args

_CHECK = VllmCheck("parallel.multi_port_overflow", 'multi-port supervised ranks would exceed')


class MultiPortLbRankOverflow(Rule):
    """Multi-port supervised ranks past `--data-parallel-size`.

    ## What it does
    Reports a `vllm serve --data-parallel-multi-port-external-lb` launch that the multi-port
    supervisor refuses: multi-port supervised ranks past `--data-parallel-size`.

    ## Why
    The node's ranks run from the start rank (`--data-parallel-start-rank`, else `--node-rank` x
    `--data-parallel-size-local`) for `--data-parallel-size-local` ranks; the last must be below
    `--data-parallel-size`. vLLM checks the arguments of the supervisor before anything else starts
    and stops with "Error: multi-port supervised ranks would exceed --data-parallel-size".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 4 --data-parallel-size-local 2 \\
        --data-parallel-multi-port-external-lb --data-parallel-start-rank 3
    ```

    ## Fix
    Set the start rank (or `--node-rank`) so that the node's ranks fit.

    ## Evidence
    The flags as written and the release's defaults; a value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `validate_multi_port_external_lb_args`, called by `validate_parsed_serve_args`, after
    `multi-port-lb-dp-size-not-divisible` (SL559).
    """

    code = "SL560"
    name = "multi-port-lb-rank-overflow"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-multi-port-external-lb"
    requires = ("--data-parallel-multi-port-external-lb",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.invocation.last("data_parallel_multi_port_external_lb") is None:
            return
        a = multi_port_args(ctx, ('dp', 'dpl', 'start', 'node_rank'))
        if a is None or not (a.sizes_divide() and a.start_rank + a.dpl > a.dp):
            return
        anchor = known_flag(ctx.invocation, "data_parallel_start_rank", "node_rank", "data_parallel_size_local",
                            "data_parallel_multi_port_external_lb")
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key), _CHECK.key)
