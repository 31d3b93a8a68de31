"""SL533: `--node-rank` not below `--nnodes`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag, value_of
from ...derive.parallel import data_parallel_args
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck(
    "parallel.node_rank_in_range",
    ("`--node-rank` must be between 0 and", "must be less than nnodes="),
    "vllm/engine/arg_utils.py",
)


class NodeRankOutOfRange(Rule):
    """`--node-rank` that is not one of the `--nnodes` nodes.

    ## What it does
    Reports, with `--nnodes` above 1, a `--node-rank` of `--nnodes` or more
    (or below 0).

    ## Why
    Nodes are numbered from 0. `EngineArgs.create_engine_config` stops with
    "Invalid data-parallel launch options: `--node-rank` must be between 0
    and 1; got `--node-rank 2`. Set it to this node's zero-based index."
    (0.25.0-0.26.0: "node_rank=2 must be less than nnodes=2.").

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-32B -tp 8 --nnodes 2 --node-rank 2
    ```

    ## Fix
    Give each node its zero-based index: `--node-rank 0` to
    `--node-rank <nnodes - 1>`.

    ## Evidence
    The flags as written. vLLM checks the world size first
    (`nnodes-not-dividing-world-size`).

    ## vLLM source
    `EngineArgs.create_engine_config`.
    """

    code = "SL533"
    name = "node-rank-out-of-range"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--node-rank"
    partners = ("--nnodes",)
    requires = ("--nnodes", "--node-rank")

    def check(self, ctx: Context) -> Iterable[Finding]:
        rank = known_flag(ctx.invocation, "node_rank")
        if rank is None:
            return
        args = data_parallel_args(ctx)
        if args is None or args.nnodes <= 1:
            return
        site = validators.site(_CHECK.key, ctx.version)
        old = site is not None and site.template.startswith("node_rank=")
        if args.node_rank < args.nnodes and (old or args.node_rank >= 0):
            return
        message = (vllm_message(ctx, _CHECK.key, args.node_rank, args.nnodes) if old
                   else vllm_message(ctx, _CHECK.key, args.nnodes - 1, args.node_rank))
        yield finding(ctx, rank, message, _CHECK.key,
                      related_to=related(ctx, value_of(ctx.invocation, "nnodes").flags,
                                         "number of nodes set by {flag}"))
