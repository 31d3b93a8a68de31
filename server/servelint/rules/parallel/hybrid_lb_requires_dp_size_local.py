"""SL538: `--data-parallel-hybrid-lb` without `--data-parallel-size-local`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...derive.parallel import data_parallel_args
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck(
    "parallel.hybrid_lb_requires_dp_size_local",
    ("`--data-parallel-hybrid-lb` requires `--data-parallel-size-local`",
     "data_parallel_size_local must be set to use data_parallel_hybrid_lb."),
    "vllm/engine/arg_utils.py",
)


class HybridLbRequiresDpSizeLocal(Rule):
    """`--data-parallel-hybrid-lb` with no local data-parallel size.

    ## What it does
    Reports `--data-parallel-hybrid-lb` when the launch sets no
    `--data-parallel-size-local` and vLLM does not infer one (it does with
    `--nnodes` above 1).

    ## Why
    Hybrid load balancing runs one API server per node over that node's
    ranks; vLLM must know how many. `EngineArgs.create_engine_config` stops
    with "Invalid data-parallel launch options: `--data-parallel-hybrid-lb`
    requires `--data-parallel-size-local`. ..." (0.25.0-0.26.0:
    "data_parallel_size_local must be set to use data_parallel_hybrid_lb.").

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 4 --data-parallel-hybrid-lb
    ```

    ## Fix
    Add `--data-parallel-size-local` (the ranks on this node) and
    `--data-parallel-start-rank`.

    ## Evidence
    The flags as written.

    ## vLLM source
    `EngineArgs.create_engine_config`, the branch for no external LB and no
    local size.
    """

    code = "SL538"
    name = "hybrid-lb-requires-dp-size-local"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-hybrid-lb"
    partners = ("--data-parallel-size-local",)
    requires = ("--data-parallel-hybrid-lb", "--data-parallel-size-local")

    def check(self, ctx: Context) -> Iterable[Finding]:
        hyb = known_flag(ctx.invocation, "data_parallel_hybrid_lb")
        if hyb is None:
            return
        args = data_parallel_args(ctx)
        if args is None or not args.hybrid_lb or args.external_lb or args.rank is not None or args.size_local is not None:
            return
        if args.nnodes > 1:
            return  # the local size is inferred from --nnodes
        yield finding(ctx, hyb, vllm_message(ctx, _CHECK.key), _CHECK.key)
