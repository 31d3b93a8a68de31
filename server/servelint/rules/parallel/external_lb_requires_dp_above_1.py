"""SL507: external data-parallel load balancing with one data-parallel rank."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...derive.parallel import data_parallel_launch
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("parallel.external_lb_requires_dp", "data_parallel_external_lb can only be set when data_parallel_size > 1",
                   "vllm/config/parallel.py")


class ExternalLbRequiresDataParallel(Rule):
    """External data-parallel load balancing without data parallelism.

    ## What it does
    Reports `--data-parallel-rank` or `--data-parallel-external-lb` (or
    hybrid load balancing that vLLM turns into external load balancing for a
    local size of 1) when `--data-parallel-size` is 1.

    ## Why
    An external load balancer spreads requests over data-parallel ranks;
    with one rank there is nothing to balance, and `ParallelConfig` stops
    with "data_parallel_external_lb can only be set when data_parallel_size > 1".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --data-parallel-rank 0
    ```

    ## Fix
    Remove the `--data-parallel-*` load-balancing flags, or set
    `--data-parallel-size` to the number of ranks behind the load balancer.

    ## Evidence
    The data-parallel flags as written, resolved as
    `EngineArgs.create_engine_config` does; a value servelint cannot read
    keeps it silent.

    ## vLLM source
    `ParallelConfig._validate_parallel_config`.
    """

    code = "SL507"
    name = "external-lb-requires-dp-above-1"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-rank"
    partners = ("--data-parallel-size", "--data-parallel-external-lb")
    requires = ("--data-parallel-external-lb", "--data-parallel-rank", "--data-parallel-size")

    def check(self, ctx: Context) -> Iterable[Finding]:
        anchor = known_flag(ctx.invocation, "data_parallel_rank", "data_parallel_external_lb",
                            "data_parallel_hybrid_lb", "data_parallel_start_rank")
        if anchor is None:
            return
        dp = data_parallel_launch(ctx)
        if dp is None or not dp.external_lb or dp.size > 1:
            return
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key), _CHECK.key,
                      note="hybrid load balancing with a local size of 1 becomes external" if dp.autoswitched else "")
