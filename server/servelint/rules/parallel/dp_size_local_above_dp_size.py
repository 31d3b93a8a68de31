"""SL506: `--data-parallel-size-local` above `--data-parallel-size`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag, value_of
from ...derive.parallel import data_parallel_launch
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("parallel.dp_size_local_le_dp_size", "must be <= data_parallel_size ({})", "vllm/config/parallel.py")


class DataParallelSizeLocalAboveSize(Rule):
    """More data-parallel ranks on this node than in the whole launch.

    ## What it does
    Reports `--data-parallel-size-local` larger than `--data-parallel-size`
    (1 when not written).

    ## Why
    The local size counts the data-parallel ranks of one node, a part of all
    of them. `ParallelConfig` stops with "data_parallel_size_local (4) must
    be <= data_parallel_size (2)". Under external load balancing
    (`--data-parallel-rank`, `--data-parallel-external-lb`) vLLM passes a
    local size of 1 and refuses any other written one itself
    (`external-lb-dp-size-local-not-1`).

    ## Example
    ```sh
    vllm serve mistralai/Mixtral-8x7B-Instruct-v0.1 --data-parallel-size 2 --data-parallel-size-local 4
    ```

    ## Fix
    Set `--data-parallel-size` to the ranks of all nodes together, and
    `--data-parallel-size-local` to those of this node.

    ## Evidence
    The data-parallel flags as written, resolved as
    `EngineArgs.create_engine_config` does (`derive.parallel.data_parallel_launch`);
    a value servelint cannot read, or a headless launch, keeps it silent.

    ## vLLM source
    `ParallelConfig._validate_parallel_config`.
    """

    code = "SL506"
    name = "dp-size-local-above-dp-size"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-size-local"
    partners = ("--data-parallel-size",)
    requires = ("--data-parallel-size", "--data-parallel-size-local")

    def check(self, ctx: Context) -> Iterable[Finding]:
        local = known_flag(ctx.invocation, "data_parallel_size_local")
        if local is None:
            return
        dp = data_parallel_launch(ctx)
        if dp is None or dp.external_lb or dp.size_local <= dp.size:
            return
        yield finding(ctx, local, vllm_message(ctx, _CHECK.key, dp.size_local, dp.size), _CHECK.key,
                      related_to=related(ctx, value_of(ctx.invocation, "data_parallel_size").flags,
                                         "data-parallel size set by {flag}"))
