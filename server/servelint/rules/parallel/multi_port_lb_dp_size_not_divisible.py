"""SL559: `--data-parallel-size` that is not a multiple of `--data-parallel-size-local` under the multi-port supervisor."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import multi_port_args

_CHECK = VllmCheck("parallel.multi_port_div", 'Error: --data-parallel-size must be divisible by ')


class MultiPortLbDpSizeNotDivisible(Rule):
    """`--data-parallel-size` that is not a multiple of `--data-parallel-size-local` under the multi-port supervisor.

    ## What it does
    Reports a `vllm serve --data-parallel-multi-port-external-lb` launch that the multi-port
    supervisor refuses: `--data-parallel-size` that is not a multiple of
    `--data-parallel-size-local` under the multi-port supervisor.

    ## Why
    Every node supervises the same number of ranks. vLLM checks the arguments of the supervisor
    before anything else starts and stops with "Error: --data-parallel-size must be divisible by
    --data-parallel-size-local".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 6 --data-parallel-size-local 4 \\
        --data-parallel-multi-port-external-lb
    ```

    ## Fix
    Choose a local size that divides the data-parallel size.

    ## Evidence
    The flags as written and the release's defaults; a value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `validate_multi_port_external_lb_args`, called by `validate_parsed_serve_args`, after
    `multi-port-lb-dp-size-local-above-dp` (SL558).
    """

    code = "SL559"
    name = "multi-port-lb-dp-size-not-divisible"
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
        if a is None or not (a.dp is not None and a.dpl is not None and 2 <= a.dpl <= a.dp and a.dp % a.dpl != 0):
            return
        anchor = known_flag(ctx.invocation, "data_parallel_size_local", "data_parallel_multi_port_external_lb")
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key), _CHECK.key)
