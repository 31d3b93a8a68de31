"""SL508: EPLB on a single rank."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of, known_flag, switch
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck(
    "parallel.eplb_requires_multi_rank",
    ("EPLB requires tensor, prefill-context, or data parallelism", "EPLB requires tensor_parallel_size or data_parallel_size"),
    "vllm/config/parallel.py",
)


class EplbRequiresMultipleRanks(Rule):
    """`--enable-eplb` with one tensor-, prefill-context- and data-parallel rank.

    ## What it does
    Reports `--enable-eplb` (with expert parallelism on) when the
    tensor-parallel, prefill-context-parallel and data-parallel sizes are
    all 1, on the targets where vLLM reaches this check (CUDA, ROCm, and
    XPU from 0.31.0).

    ## Why
    The expert-parallel group spans the TP x PCP x DP ranks; with one rank
    there are no experts to move between ranks. vLLM stops with "EPLB
    requires tensor, prefill-context, or data parallelism, but got TP=1,
    PCP=1, DP=1." (0.25.0: "EPLB requires tensor_parallel_size or
    data_parallel_size to be greater than 1, ..."; prefill-context
    parallelism counts from 0.26.0).

    ## Example
    ```sh
    vllm serve mistralai/Mixtral-8x7B-Instruct-v0.1 --enable-expert-parallel --enable-eplb
    ```

    ## Fix
    Run on several GPUs (`-tp 2`, `--data-parallel-size 2`), or remove
    `--enable-eplb`.

    ## Evidence
    The flags as written and the release's defaults. On CPU (and XPU before
    0.31.0) vLLM refuses EPLB earlier for the platform, and the rule is
    silent there.

    ## vLLM source
    `ParallelConfig._validate_parallel_config`, after `eplb-requires-expert-parallel` (SL307).
    """

    code = "SL508"
    name = "eplb-requires-multi-rank"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enable-eplb"
    requires = ("--enable-eplb",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        eplb = known_flag(inv, "enable_eplb")
        if eplb is None or not switch(inv, "enable_eplb"):
            return
        if ctx.target not in ("cuda", "rocm", "xpu") or (ctx.target == "xpu" and not ctx.at_least("0.31.0")):
            return
        if switch(inv, "enable_expert_parallel") is not True:
            return  # SL307, or not known
        tp, dp = int_of(inv, "tensor_parallel_size"), int_of(inv, "data_parallel_size")
        pcp = int_of(inv, "prefill_context_parallel_size")
        if not (tp.known and dp.known and pcp.known):
            return
        site = validators.site(_CHECK.key, ctx.version)
        old = site is not None and "PCP" not in site.template  # 0.25.0: PCP does not count
        ranks = tp.value * dp.value * (1 if old else pcp.value)
        if ranks > 1:
            return
        msg = (vllm_message(ctx, _CHECK.key, tp.value, dp.value) if old
               else vllm_message(ctx, _CHECK.key, tp.value, pcp.value, dp.value))
        yield finding(ctx, eplb, msg, _CHECK.key)
