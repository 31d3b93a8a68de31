"""SL515: a data-parallel rank outside the data-parallel size."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag, value_of
from ...derive.parallel import data_parallel_launch
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("parallel.dp_rank_in_range", "must be in the range [0, {})", "vllm/config/parallel.py")


class DataParallelRankOutOfRange(Rule):
    """`--data-parallel-rank` (or `--data-parallel-start-rank`) not below `--data-parallel-size`.

    ## What it does
    Reports a data-parallel rank that is not in `[0, --data-parallel-size)`:
    the rank written with `--data-parallel-rank`, the start rank of hybrid
    load balancing, or the rank vLLM infers from `--node-rank`.

    ## Why
    Ranks count from 0; rank 2 of a data-parallel size of 2 does not exist.
    `ParallelConfig.__post_init__` stops with "data_parallel_rank (2) must
    be in the range [0, 2)".

    ## Example
    ```sh
    vllm serve mistralai/Mixtral-8x7B-Instruct-v0.1 --data-parallel-size 2 --data-parallel-rank 2
    ```

    ## Fix
    Number the ranks 0 to `--data-parallel-size` - 1.

    ## Evidence
    The data-parallel flags as written, resolved as
    `EngineArgs.create_engine_config` does. With
    `--distributed-executor-backend external_launcher` vLLM takes the rank
    from the `RANK` variable instead, and the rule is silent.

    ## vLLM source
    `ParallelConfig.__post_init__` (only when data parallelism is given
    on the command line: `--data-parallel-size` above 1).
    """

    code = "SL515"
    name = "dp-rank-out-of-range"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-rank"
    partners = ("--data-parallel-size",)
    requires = ("--data-parallel-rank", "--data-parallel-size", "--distributed-executor-backend")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        anchor = known_flag(inv, "data_parallel_rank", "data_parallel_start_rank", "node_rank")
        if anchor is None:
            return
        dp = data_parallel_launch(ctx)
        if dp is None or not (dp.size > 1 or dp.size_local == 0) or 0 <= dp.rank < dp.size:
            return
        backend = value_of(inv, "distributed_executor_backend")
        if not backend.known and backend.how == "unknown" or backend.value == "external_launcher":
            return
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key, dp.rank, dp.size), _CHECK.key,
                      related_to=related(ctx, value_of(inv, "data_parallel_size").flags,
                                         "data-parallel size set by {flag}"))
