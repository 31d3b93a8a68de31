"""SL555: `--data-parallel-multi-port-external-lb` with another load-balancing mode."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import multi_port_args

_CHECK = VllmCheck("parallel.multi_port_excl", 'external-lb cannot be combined with ')


class MultiPortLbExclusive(Rule):
    """`--data-parallel-multi-port-external-lb` with another load-balancing mode.

    ## What it does
    Reports a `vllm serve --data-parallel-multi-port-external-lb` launch that the multi-port
    supervisor refuses: `--data-parallel-multi-port-external-lb` with another load-balancing mode.

    ## Why
    Multi-port external load balancing is its own mode; the supervisor turns on external load
    balancing in each child itself. vLLM checks the arguments of the supervisor before anything else
    starts and stops with "Error: --data-parallel-multi-port-external-lb cannot be combined with
    --data-parallel-external-lb or --data-parallel-hybrid-lb".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 4 --data-parallel-size-local 2 \\
        --data-parallel-multi-port-external-lb --data-parallel-external-lb
    ```

    ## Fix
    Keep one load-balancing mode.

    ## Evidence
    The flags as written and the release's defaults; a value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `validate_multi_port_external_lb_args`, called by `validate_parsed_serve_args`, after
    `multi-port-lb-dp-rank` (SL554).
    """

    code = "SL555"
    name = "multi-port-lb-exclusive"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-multi-port-external-lb"
    requires = ("--data-parallel-multi-port-external-lb",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.invocation.last("data_parallel_multi_port_external_lb") is None:
            return
        a = multi_port_args(ctx, ('ext', 'hyb'))
        if a is None or not (a.ext or a.hyb):
            return
        anchor = known_flag(ctx.invocation, "data_parallel_external_lb", "data_parallel_hybrid_lb",
                            "data_parallel_multi_port_external_lb")
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key), _CHECK.key)
