"""SL532: `--nnodes` that does not divide the world size."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...derive.parallel import DP_WORLD_HAS_PCP, data_parallel_args
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck(
    "parallel.nnodes_divides_world_size",
    ("must evenly divide the total world size", "must be divisible by nnodes="),
    "vllm/engine/arg_utils.py",
)


class NnodesNotDividingWorldSize(Rule):
    """`--nnodes` that does not divide the number of GPUs of the launch.

    ## What it does
    Reports `--nnodes` above 1 when the world size, data-parallel x
    pipeline-parallel x tensor-parallel (x prefill-context-parallel from
    0.30.0) size, is not a multiple of it.

    ## Why
    Every node runs the same number of ranks. `EngineArgs.create_engine_config`
    stops with "Invalid data-parallel launch options: `--nnodes 2` must
    evenly divide the total world size (1). ..." (0.25.0-0.26.0:
    "world_size=1 must be divisible by nnodes=2.").

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --nnodes 2
    ```

    ## Fix
    Set the parallel sizes for all nodes together (`-tp 8 --nnodes 2` for 4
    GPUs per node), or lower `--nnodes`.

    ## Evidence
    The sizes as written and the release's defaults.

    ## vLLM source
    `EngineArgs.create_engine_config`, after `nnodes-requires-mp-dp-backend`.
    """

    code = "SL532"
    name = "nnodes-not-dividing-world-size"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--nnodes"
    requires = ("--nnodes",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        nnodes = known_flag(ctx.invocation, "nnodes")
        if nnodes is None:
            return
        args = data_parallel_args(ctx)
        if args is None or args.nnodes <= 1:
            return
        pcp = args.pcp if validators.has(DP_WORLD_HAS_PCP.key, ctx.version) else 1
        world = args.size * args.pp * args.tp * pcp
        if world % args.nnodes == 0:
            return
        site = validators.site(_CHECK.key, ctx.version)
        old = site is not None and site.template.startswith("world_size=")
        message = (vllm_message(ctx, _CHECK.key, world, args.nnodes) if old
                   else vllm_message(ctx, _CHECK.key, args.nnodes, world))
        yield finding(ctx, nnodes, message, _CHECK.key)
