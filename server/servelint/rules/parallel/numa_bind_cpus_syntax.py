"""SL503: a `--numa-bind-cpus` entry that is not a numactl CPU list."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding
from ._shared import CPUSET, list_of

_CHECK = VllmCheck("parallel.numa_bind_cpus_syntax", "numa_bind_cpus entries must use numactl CPU list syntax",
                   "vllm/config/parallel.py")


class NumaBindCpusSyntax(Rule):
    """A `--numa-bind-cpus` entry that is not a numactl CPU list.

    ## What it does
    Reports an entry of `--numa-bind-cpus` that is not a comma-separated
    list of CPU numbers and ranges (`0-3`, `0,2,4-7`).

    ## Why
    Each entry is passed to `numactl --physcpubind`. `ParallelConfig` checks
    the syntax while it is built and stops with "numa_bind_cpus entries must
    use numactl CPU list syntax, for example '0-3' or '0,2,4-7'." Spaces,
    node names and `numactl`'s other forms (`+1`, `!`, `all`) are refused.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -tp 2 --numa-bind --numa-bind-cpus 0-3 "4 - 7"
    ```

    ## Fix
    Write each entry as CPU numbers and ascending ranges joined by commas,
    with no spaces: `0-3`, `4-7`.

    ## Evidence
    The entries as written; an entry servelint cannot read (a variable)
    keeps the rule silent.

    ## vLLM source
    The field validator `ParallelConfig._validate_numa_bind_cpus`.
    """

    code = "SL503"
    name = "numa-bind-cpus-syntax"
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
            if not isinstance(cpuset, str) or not cpuset:
                return  # an empty entry: vLLM refuses it before (as "not a valid string")
            if not CPUSET.fullmatch(cpuset):
                yield finding(ctx, flag, "numa_bind_cpus entries must use numactl CPU list syntax, "
                              "for example '0-3' or '0,2,4-7'.", _CHECK.key, note=f"got {cpuset!r}")
                return
