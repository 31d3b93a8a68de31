"""SL539: hybrid load balancing with one local rank, which vLLM turns into external load balancing."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...derive.parallel import data_parallel_launch
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding

_CHECK = VllmCheck("parallel.hybrid_lb_autoswitch", "data_parallel_hybrid_lb is not eligible when",
                   "vllm/engine/arg_utils.py")
_MESSAGE = ("data_parallel_hybrid_lb is not eligible when data_parallel_size_local = 1, autoswitch to "
            "data_parallel_external_lb.")


class HybridLbAutoswitch(Rule):
    """Hybrid data-parallel load balancing with `--data-parallel-size-local 1`.

    ## What it does
    Warns when hybrid load balancing (`--data-parallel-hybrid-lb`, or
    `--data-parallel-start-rank` with a local size) meets a local size of 1.

    ## Why
    With one rank per node there is nothing for a node's API server to
    balance; vLLM logs "data_parallel_hybrid_lb is not eligible when
    data_parallel_size_local = 1, autoswitch to data_parallel_external_lb."
    and runs external load balancing instead, so the external load balancer
    must reach every rank.

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 4 --data-parallel-size-local 1 \\
        --data-parallel-start-rank 1 --data-parallel-hybrid-lb
    ```

    ## Fix
    Use `--data-parallel-rank` (external load balancing) for one rank per
    node, or raise `--data-parallel-size-local`.

    ## Evidence
    The data-parallel flags as written, resolved as
    `EngineArgs.create_engine_config` does.

    ## vLLM source
    `EngineArgs.create_engine_config` (a warning).
    """

    code = "SL539"
    name = "hybrid-lb-autoswitch"
    category = Category.INCOMPATIBLE
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-hybrid-lb"
    requires = ("--data-parallel-hybrid-lb",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        anchor = known_flag(ctx.invocation, "data_parallel_hybrid_lb", "data_parallel_start_rank")
        if anchor is None:
            return
        dp = data_parallel_launch(ctx)
        if dp is None or not dp.autoswitched:
            return
        yield finding(ctx, anchor, None, _CHECK.key, message=_MESSAGE)
