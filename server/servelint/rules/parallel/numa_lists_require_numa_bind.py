"""SL505: `--numa-bind-nodes` or `--numa-bind-cpus` without `--numa-bind`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import switch, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("parallel.numa_lists_require_numa_bind", "numa_bind_nodes and numa_bind_cpus require numa_bind=True.",
                   "vllm/config/parallel.py")


class NumaListsRequireNumaBind(Rule):
    """`--numa-bind-nodes` or `--numa-bind-cpus` while NUMA binding is off.

    ## What it does
    Reports `--numa-bind-nodes` or `--numa-bind-cpus` in a launch that does
    not turn on `--numa-bind`.

    ## Why
    The lists only say where to bind; binding itself is `--numa-bind`, off by
    default. Rather than ignore the lists, `ParallelConfig` stops:
    "numa_bind_nodes and numa_bind_cpus require numa_bind=True."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -tp 2 --numa-bind-nodes 0 1
    ```

    ## Fix
    Add `--numa-bind`, or remove the lists.

    ## Evidence
    The flags as written (an empty list is refused by argparse first);
    `--numa-bind` written with a value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `ParallelConfig._validate_parallel_config`, after the data-parallel size
    checks.
    """

    code = "SL505"
    name = "numa-lists-require-numa-bind"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--numa-bind-nodes"
    partners = ("--numa-bind",)
    requires = ("--numa-bind", "--numa-bind-nodes")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        lists = [f for f in (inv.last("numa_bind_nodes"), inv.last("numa_bind_cpus")) if f is not None]
        lists = [f for f in lists if not (f.values and f.values[-1].exact and f.values[-1].text in ("None", "null"))]
        if not lists or switch(inv, "numa_bind") is not False:
            return
        yield finding(ctx, lists[0], vllm_message(ctx, _CHECK.key), _CHECK.key,
                      related_to=related(ctx, value_of(inv, "numa_bind").flags, "NUMA binding turned off by {flag}"))
