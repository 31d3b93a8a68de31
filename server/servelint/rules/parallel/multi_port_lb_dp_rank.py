"""SL554: `--data-parallel-rank` under the multi-port supervisor."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import multi_port_args

_CHECK = VllmCheck("parallel.multi_port_rank", '--data-parallel-rank values internally')


class MultiPortLbDpRank(Rule):
    """`--data-parallel-rank` under the multi-port supervisor.

    ## What it does
    Reports a `vllm serve --data-parallel-multi-port-external-lb` launch that the multi-port
    supervisor refuses: `--data-parallel-rank` under the multi-port supervisor.

    ## Why
    The supervisor gives each child its rank (the start rank plus its local index). vLLM checks the
    arguments of the supervisor before anything else starts and stops with "Error:
    --data-parallel-multi-port-external-lb manages child --data-parallel-rank values internally".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 4 --data-parallel-size-local 2 \\
        --data-parallel-multi-port-external-lb --data-parallel-rank 0
    ```

    ## Fix
    Remove `--data-parallel-rank`; set `--data-parallel-start-rank` (or `--node-rank`) for the
    node's first rank.

    ## Evidence
    The flags as written and the release's defaults; a value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `validate_multi_port_external_lb_args`, called by `validate_parsed_serve_args`, after
    `multi-port-lb-api-server-count` (SL553).
    """

    code = "SL554"
    name = "multi-port-lb-dp-rank"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-multi-port-external-lb"
    requires = ("--data-parallel-multi-port-external-lb",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.invocation.last("data_parallel_multi_port_external_lb") is None:
            return
        a = multi_port_args(ctx, ('rank',))
        if a is None or not (a.rank is not None):
            return
        anchor = known_flag(ctx.invocation, "data_parallel_rank", "data_parallel_multi_port_external_lb")
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key), _CHECK.key)
