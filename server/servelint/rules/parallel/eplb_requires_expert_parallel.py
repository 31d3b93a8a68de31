"""SL307: `--enable-eplb` without `--enable-expert-parallel`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related


class EplbWithoutExpertParallel(Rule):
    """`--enable-eplb` without `--enable-expert-parallel`.

    ## What it does
    Reports `--enable-eplb` when expert parallelism is off, on the targets
    where vLLM reaches this check (CUDA, ROCm, and XPU from 0.31.0; on other
    platforms vLLM refuses EPLB first, for the platform).

    ## Why
    EPLB rebalances experts between expert-parallel ranks. vLLM stops with
    "enable_expert_parallel must be True to use EPLB."

    ## Example
    ```sh
    vllm serve mistralai/Mixtral-8x7B-Instruct-v0.1 -tp 2 --enable-eplb
    ```

    ## Fix
    Add `--enable-expert-parallel`, or remove `--enable-eplb`.

    ## Evidence
    `--enable-eplb` and `--enable-expert-parallel` as written (silent when
    either is only known at run time) and the declared target.

    ## vLLM source
    `ParallelConfig._validate_parallel_config` (after the platform check
    just above it).
    """

    code = "SL307"
    vllm_checks = (VllmCheck("eplb", "enable_expert_parallel must be True to use EPLB.", "vllm/config/parallel.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "eplb-requires-expert-parallel"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--enable-eplb"
    partners = ("--enable-expert-parallel",)
    requires = ("--enable-eplb", "--enable-expert-parallel")
    reads = frozenset({"enable_eplb", "enable_expert_parallel"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target not in ("cuda", "rocm", "xpu"):
            return
        if ctx.target == "xpu" and not ctx.at_least("0.31.0"):
            # XPU joined the platforms allowed EPLB in 0.31.0 (the platform
            # check above the message, vllm/config/parallel.py).
            return
        inv = ctx.invocation
        eplb = value_of(inv, "enable_eplb")
        if eplb.how != "flag" or not eplb.value:
            return
        ep = value_of(inv, "enable_expert_parallel")
        if not ep.known or ep.value:
            return
        message = "enable_expert_parallel must be True to use EPLB."
        rel = related(ctx, ep.flags, "expert parallelism turned off by {flag}")
        yield finding(ctx, eplb.flags[-1], message, "eplb", related_to=rel)
