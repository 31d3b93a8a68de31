"""SL536: `--data-parallel-external-lb` without a data-parallel rank."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...derive.parallel import data_parallel_args
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck(
    "parallel.external_lb_requires_dp_rank",
    ("`--data-parallel-external-lb` requires a data-parallel rank", "data_parallel_rank or node_rank must be specified"),
    "vllm/engine/arg_utils.py",
)


class ExternalLbRequiresDpRank(Rule):
    """`--data-parallel-external-lb` with no rank given or inferable.

    ## What it does
    Reports `--data-parallel-external-lb` when the launch writes no
    `--data-parallel-rank` and vLLM cannot infer one (it does from
    `--node-rank` with `--nnodes` above 1 and `--data-parallel-size` above 1).

    ## Why
    Under external load balancing each process is one data-parallel rank and
    must know which. `EngineArgs.create_engine_config` stops with "Invalid
    data-parallel launch options: `--data-parallel-external-lb` requires a
    data-parallel rank. ..." (0.25.0-0.26.0: "data_parallel_rank or node_rank
    must be specified if data_parallel_external_lb is enable.").

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 2 --data-parallel-external-lb
    ```

    ## Fix
    Add `--data-parallel-rank N` (a different N per process).

    ## Evidence
    The flags as written.

    ## vLLM source
    `EngineArgs.create_engine_config`, after `external-dp-requires-moe` (SL308).
    """

    code = "SL536"
    name = "external-lb-requires-dp-rank"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-external-lb"
    partners = ("--data-parallel-rank",)
    requires = ("--data-parallel-external-lb", "--data-parallel-rank")

    def check(self, ctx: Context) -> Iterable[Finding]:
        ext = known_flag(ctx.invocation, "data_parallel_external_lb")
        if ext is None:
            return
        args = data_parallel_args(ctx)
        if args is None or not args.external_lb or args.rank is not None or (args.nnodes > 1 and args.size > 1):
            return
        yield finding(ctx, ext, vllm_message(ctx, _CHECK.key), _CHECK.key)
