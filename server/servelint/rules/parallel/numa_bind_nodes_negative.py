"""SL502: a negative NUMA node in `--numa-bind-nodes`."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import list_of

_CHECK = VllmCheck("parallel.numa_bind_nodes_nonnegative", "numa_bind_nodes must contain non-negative integers.",
                   "vllm/config/parallel.py")


class NumaBindNodesNegative(Rule):
    """`--numa-bind-nodes` with a negative NUMA node.

    ## What it does
    Reports a `--numa-bind-nodes` list that holds a number below 0.

    ## Why
    The nodes are passed to `numactl --membind` and `--cpunodebind`, which
    know no negative node. `ParallelConfig` refuses the list while it is
    built: "numa_bind_nodes must contain non-negative integers."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -tp 2 --numa-bind --numa-bind-nodes 0 -1
    ```

    ## Fix
    Give one NUMA node index (0, 1, ...) per visible GPU, or leave
    `--numa-bind-nodes` out to let vLLM detect the GPU-to-NUMA topology.

    ## Evidence
    The list as written. An item servelint cannot read (a variable) keeps
    the rule silent.

    ## vLLM source
    The field validator `ParallelConfig._validate_numa_bind_nodes`, which runs
    before the other checks of `ParallelConfig`.
    """

    code = "SL502"
    name = "numa-bind-nodes-negative"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--numa-bind-nodes"
    requires = ("--numa-bind-nodes",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        got = list_of(ctx, "numa_bind_nodes")
        if got is None:
            return
        flag, nodes = got
        if any(isinstance(n, int) and n < 0 for n in nodes):
            yield finding(ctx, flag, vllm_message(ctx, _CHECK.key), _CHECK.key)
