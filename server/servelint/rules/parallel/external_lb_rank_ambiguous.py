"""SL534: external load balancing over nodes that do not split into data-parallel ranks."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...derive.parallel import EXT_LB_RANK_AMBIGUOUS, data_parallel_args
from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule, finding

_CHECK = EXT_LB_RANK_AMBIGUOUS
_MESSAGE = ("Invalid data-parallel launch options: `--node-rank` cannot unambiguously identify external data-parallel "
            "ranks when `--nnodes` is not divisible by `--data-parallel-size`. Set a unique `--data-parallel-rank` "
            "for each external-LB process.")


class ExternalLbRankAmbiguous(Rule):
    """`--data-parallel-external-lb` with `--nnodes` not a multiple of `--data-parallel-size`, and no rank.

    ## What it does
    Reports external data-parallel load balancing over several nodes that
    leaves the rank to be inferred from `--node-rank` when `--nnodes` is not
    a multiple of `--data-parallel-size`.

    ## Why
    vLLM infers each process's data-parallel rank from its node rank; when
    a rank spans nodes unevenly, two processes would get the same rank.
    `EngineArgs.create_engine_config` stops with "Invalid data-parallel
    launch options: `--node-rank` cannot unambiguously identify external
    data-parallel ranks ...". Releases before 0.31.0 infer the rank anyway
    (and replace a written one).

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 -tp 3 --data-parallel-size 2 --nnodes 3 --data-parallel-external-lb
    ```

    ## Fix
    Give each process its own `--data-parallel-rank`.

    ## Evidence
    The flags as written.

    ## vLLM source
    `EngineArgs.create_engine_config`, after `node-rank-out-of-range`.
    """

    code = "SL534"
    name = "external-lb-rank-ambiguous"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-external-lb"
    partners = ("--nnodes", "--data-parallel-size")
    requires = ("--data-parallel-external-lb", "--data-parallel-size", "--nnodes")

    def check(self, ctx: Context) -> Iterable[Finding]:
        ext = known_flag(ctx.invocation, "data_parallel_external_lb")
        if ext is None:
            return
        args = data_parallel_args(ctx)
        if args is None or not args.external_lb or args.nnodes <= 1 or args.size <= 1 or args.rank is not None:
            return
        if args.nnodes % args.size == 0:
            return
        yield finding(ctx, ext, _MESSAGE, _CHECK.key)
