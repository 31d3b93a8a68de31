"""SL530: `--data-parallel-hybrid-lb` together with `--data-parallel-external-lb`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag, switch, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck(
    "parallel.dp_hybrid_and_external_lb",
    ("cannot be enabled together. Enable only one load-balancing mode.",
     "data_parallel_hybrid_lb and data_parallel_external_lb cannot both be True."),
    "vllm/engine/arg_utils.py",
)


class DataParallelHybridAndExternalLb(Rule):
    """Hybrid and external data-parallel load balancing at once.

    ## What it does
    Reports `--data-parallel-hybrid-lb` and `--data-parallel-external-lb`
    both turned on.

    ## Why
    They are two different modes: external LB runs one engine per rank
    behind your load balancer, hybrid LB one API server per node balancing
    its local ranks. `EngineArgs.create_engine_config` stops with "Invalid
    data-parallel launch options: `--data-parallel-hybrid-lb` and
    `--data-parallel-external-lb` cannot be enabled together. Enable only
    one load-balancing mode." (0.25.0-0.26.0: an assertion,
    "data_parallel_hybrid_lb and data_parallel_external_lb cannot both be
    True."). `vllm serve` of recent releases refuses the pair even before,
    with "Cannot use more than one data parallel load balancing mode."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 4 --data-parallel-hybrid-lb --data-parallel-external-lb
    ```

    ## Fix
    Keep one of the two.

    ## Evidence
    The switches as written.

    ## vLLM source
    `EngineArgs.create_engine_config`, the first of its data-parallel checks.
    """

    code = "SL530"
    name = "dp-hybrid-and-external-lb"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-hybrid-lb"
    partners = ("--data-parallel-external-lb",)
    requires = ("--data-parallel-external-lb", "--data-parallel-hybrid-lb")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        hyb = known_flag(inv, "data_parallel_hybrid_lb")
        if hyb is None or not switch(inv, "data_parallel_hybrid_lb") or not switch(inv, "data_parallel_external_lb"):
            return
        yield finding(ctx, hyb, vllm_message(ctx, _CHECK.key), _CHECK.key,
                      related_to=related(ctx, value_of(inv, "data_parallel_external_lb").flags,
                                         "external load balancing set by {flag}"))
