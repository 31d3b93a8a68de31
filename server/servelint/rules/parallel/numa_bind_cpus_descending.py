"""SL504: a descending CPU range in `--numa-bind-cpus`."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import CPUSET, list_of

_CHECK = VllmCheck("parallel.numa_bind_cpus_ascending", "numa_bind_cpus ranges must be ascending",
                   "vllm/config/parallel.py")


class NumaBindCpusDescending(Rule):
    """A `--numa-bind-cpus` range whose start is above its end.

    ## What it does
    Reports an entry of `--numa-bind-cpus` with a range such as `7-4`.

    ## Why
    `ParallelConfig` checks every range of every entry, in order, and stops
    at the first descending one: "numa_bind_cpus ranges must be ascending,
    but got '7-4'."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -tp 2 --numa-bind --numa-bind-cpus 0-3 7-4
    ```

    ## Fix
    Write the range low to high: `4-7`.

    ## Evidence
    The entries as written; an entry servelint cannot read keeps the rule
    silent. An entry that is not a CPU list at all is `numa-bind-cpus-syntax`,
    which vLLM reports first when it comes earlier in the list.

    ## vLLM source
    The field validator `ParallelConfig._validate_numa_bind_cpus`.
    """

    code = "SL504"
    name = "numa-bind-cpus-descending"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--numa-bind-cpus"
    requires = ("--numa-bind-cpus",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        got = list_of(ctx, "numa_bind_cpus")
        if got is None:
            return
        flag, cpus = got
        for cpuset in cpus:
            if not isinstance(cpuset, str) or not CPUSET.fullmatch(cpuset):
                return  # refused before this entry's ranges are read
            for part in cpuset.split(","):
                start, sep, end = part.partition("-")
                if sep and int(start) > int(end):
                    yield finding(ctx, flag, vllm_message(ctx, _CHECK.key, cpuset), _CHECK.key)
                    return
