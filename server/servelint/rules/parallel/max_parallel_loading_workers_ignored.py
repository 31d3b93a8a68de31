"""SL522: `--max-parallel-loading-workers`, which vLLM ignores."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding

_CHECK = VllmCheck("parallel.max_parallel_loading_workers_ignored", "max_parallel_loading_workers is currently not supported",
                   "vllm/config/parallel.py")


class MaxParallelLoadingWorkersIgnored(Rule):
    """`--max-parallel-loading-workers`, which has no effect.

    ## What it does
    Warns about `--max-parallel-loading-workers` set to a number.

    ## Why
    vLLM logs "max_parallel_loading_workers is currently not supported and
    will be ignored." and loads the model as it would without it; a launch
    that relies on it to bound host memory while loading does not get that.

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4 --max-parallel-loading-workers 2
    ```

    ## Fix
    Remove the flag.

    ## Evidence
    The flag as written (`None` is the default and passes silently; a value
    below 1 is refused by the field's range, `invalid-value`).

    ## vLLM source
    `ParallelConfig.__post_init__` (a warning).
    """

    code = "SL522"
    name = "max-parallel-loading-workers-ignored"
    category = Category.DEPRECATED
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--max-parallel-loading-workers"
    requires = ("--max-parallel-loading-workers",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        flag = known_flag(ctx.invocation, "max_parallel_loading_workers")
        if flag is None:
            return
        workers = value_of(ctx.invocation, "max_parallel_loading_workers").value
        if not isinstance(workers, int) or workers < 1:
            return  # None passes silently; below 1 the field's range refuses it first (invalid-value)
        yield finding(ctx, flag, None, _CHECK.key,
                      message="max_parallel_loading_workers is currently not supported and will be ignored.")
