"""SL557: `--data-parallel-multi-port-external-lb` with fewer than 2 local ranks."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import multi_port_args

_CHECK = VllmCheck("parallel.multi_port_dpl", '--data-parallel-size-local >= 2')


class MultiPortLbDpSizeLocal(Rule):
    """`--data-parallel-multi-port-external-lb` with fewer than 2 local ranks.

    ## What it does
    Reports a `vllm serve --data-parallel-multi-port-external-lb` launch that the multi-port
    supervisor refuses: `--data-parallel-multi-port-external-lb` with fewer than 2 local ranks.

    ## Why
    The supervisor exists to run several ranks on one node; with one, run it with
    `--data-parallel-rank` directly. vLLM checks the arguments of the supervisor before anything
    else starts and stops with "Error: --data-parallel-multi-port-external-lb requires
    --data-parallel-size-local >= 2".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 4 --data-parallel-multi-port-external-lb
    ```

    ## Fix
    Set `--data-parallel-size-local` to this node's ranks (2 or more).

    ## Evidence
    The flags as written and the release's defaults; a value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `validate_multi_port_external_lb_args`, called by `validate_parsed_serve_args`, after
    `multi-port-lb-dp-size` (SL556).
    """

    code = "SL557"
    name = "multi-port-lb-dp-size-local"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-multi-port-external-lb"
    requires = ("--data-parallel-multi-port-external-lb",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.invocation.last("data_parallel_multi_port_external_lb") is None:
            return
        a = multi_port_args(ctx, ('dpl',))
        if a is None or not (a.dpl is None or a.dpl < 2):
            return
        anchor = known_flag(ctx.invocation, "data_parallel_size_local", "data_parallel_multi_port_external_lb")
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key), _CHECK.key)
