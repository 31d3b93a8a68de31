"""SL521: an all-to-all backend vLLM has removed and replaces."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding

_CHECK = VllmCheck("parallel.all2all_backend_removed", "all2all backend has been removed. Falling back to",
                   "vllm/config/parallel.py")


class All2AllBackendRemoved(Rule):
    """`--all2all-backend pplx` or `naive`, which vLLM replaces with `allgather_reducescatter`.

    ## What it does
    Warns about `--all2all-backend pplx` and `--all2all-backend naive`: the
    flag still accepts them, but vLLM runs another backend.

    ## Why
    Both backends were removed; `ParallelConfig` logs "The 'pplx' all2all
    backend has been removed. Falling back to 'allgather_reducescatter'."
    and changes the setting, so the launch does not run what it says.

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --enable-expert-parallel --all2all-backend pplx
    ```

    ## Fix
    Choose a backend that exists (`allgather_reducescatter`,
    `deepep_high_throughput`, `deepep_low_latency`, ...).

    ## Evidence
    The value as written.

    ## vLLM source
    `ParallelConfig._validate_parallel_config` (a warning, then the value is replaced).
    """

    code = "SL521"
    name = "all2all-backend-removed"
    category = Category.DEPRECATED
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--all2all-backend"
    requires = ("--all2all-backend",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        flag = known_flag(ctx.invocation, "all2all_backend")
        if flag is None:
            return
        backend = value_of(ctx.invocation, "all2all_backend").value
        if backend not in ("pplx", "naive"):
            return
        yield finding(ctx, flag, None, _CHECK.key,
                      message=f"The '{backend}' all2all backend has been removed. Falling back to 'allgather_reducescatter'.")
