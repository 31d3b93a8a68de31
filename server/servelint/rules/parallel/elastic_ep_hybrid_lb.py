"""SL514: elastic expert parallelism with hybrid data-parallel load balancing."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag, switch
from ...derive.parallel import data_parallel_launch
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("parallel.elastic_ep_no_hybrid_lb", "Elastic EP is not compatible with data_parallel_hybrid_lb.",
                   "vllm/config/parallel.py")


class ElasticEpHybridLb(Rule):
    """`--enable-elastic-ep` with hybrid data-parallel load balancing.

    ## What it does
    Reports elastic expert parallelism when vLLM runs hybrid load balancing:
    `--data-parallel-hybrid-lb`, or `--data-parallel-start-rank` with
    `--data-parallel-size-local`, which vLLM takes for it, unless the local
    size is 1 (then vLLM switches to external load balancing) or the whole
    data-parallel size (one node: no hybrid).

    ## Why
    Elastic EP resizes the data-parallel group behind one API server or an
    external load balancer. `ParallelConfig.__post_init__` stops with
    "Elastic EP is not compatible with data_parallel_hybrid_lb. ..."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --enable-expert-parallel --enable-eplb --enable-elastic-ep \\
        --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-start-rank 2
    ```

    ## Fix
    Use external load balancing (one `vllm serve` per rank with
    `--data-parallel-rank`), or drop elastic EP.

    ## Evidence
    The data-parallel flags as written, resolved as
    `EngineArgs.create_engine_config` does; headless launches (no hybrid
    inference there) and values servelint cannot read keep it silent.

    ## vLLM source
    `ParallelConfig.__post_init__`, after the EPLB and pipeline checks of
    elastic EP.
    """

    code = "SL514"
    name = "elastic-ep-hybrid-lb"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enable-elastic-ep"
    partners = ("--data-parallel-hybrid-lb", "--data-parallel-start-rank")
    requires = ("--data-parallel-hybrid-lb", "--data-parallel-start-rank", "--enable-elastic-ep")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        elastic = known_flag(inv, "enable_elastic_ep")
        if elastic is None or not switch(inv, "enable_elastic_ep"):
            return
        dp = data_parallel_launch(ctx)
        if dp is None or not dp.hybrid_lb:
            return
        why = known_flag(inv, "data_parallel_hybrid_lb", "data_parallel_start_rank")
        yield finding(ctx, elastic, vllm_message(ctx, _CHECK.key), _CHECK.key,
                      related_to=related(ctx, [why] if why else [], "hybrid load balancing from {flag}"))
