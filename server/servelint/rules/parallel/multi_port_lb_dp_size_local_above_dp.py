"""SL558: `--data-parallel-size-local` above `--data-parallel-size` under the multi-port supervisor."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import multi_port_args

_CHECK = VllmCheck("parallel.multi_port_dpl_le", '--data-parallel-size-local cannot exceed --data-parallel-size')


class MultiPortLbDpSizeLocalAboveDp(Rule):
    """`--data-parallel-size-local` above `--data-parallel-size` under the multi-port supervisor.

    ## What it does
    Reports a `vllm serve --data-parallel-multi-port-external-lb` launch that the multi-port
    supervisor refuses: `--data-parallel-size-local` above `--data-parallel-size` under the
    multi-port supervisor.

    ## Why
    A node runs a part of the data-parallel ranks, never more than all of them. vLLM checks the
    arguments of the supervisor before anything else starts and stops with "Error:
    --data-parallel-size-local cannot exceed --data-parallel-size".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 2 --data-parallel-size-local 4 \\
        --data-parallel-multi-port-external-lb
    ```

    ## Fix
    Lower `--data-parallel-size-local`, or raise `--data-parallel-size` to the ranks of all nodes.

    ## Evidence
    The flags as written and the release's defaults; a value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `validate_multi_port_external_lb_args`, called by `validate_parsed_serve_args`, after
    `multi-port-lb-dp-size-local` (SL557).
    """

    code = "SL558"
    name = "multi-port-lb-dp-size-local-above-dp"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-multi-port-external-lb"
    requires = ("--data-parallel-multi-port-external-lb",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.invocation.last("data_parallel_multi_port_external_lb") is None:
            return
        a = multi_port_args(ctx, ('dp', 'dpl'))
        if a is None or not (a.dp is not None and a.dpl is not None and 2 <= a.dpl and a.dpl > a.dp):
            return
        anchor = known_flag(ctx.invocation, "data_parallel_size_local", "data_parallel_multi_port_external_lb")
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key), _CHECK.key)
