"""SL328: `--max-num-active-seqs` above the number of sequences the scheduler keeps."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.scheduler import batches
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, vllm_source

_CHECK = VllmCheck(
    "scheduler.max_num_active_seqs", "greater than max_num_seqs ({}).", "vllm/config/scheduler.py",
)


class MaxNumActiveSeqsAboveMaxNumSeqs(Rule):
    """`--max-num-active-seqs` greater than `--max-num-seqs`.

    ## What it does
    Reports a `--max-num-active-seqs` larger than the number of sequences
    the scheduler keeps in a batch (`--max-num-seqs`, or its default for
    the GPU when the launch does not set it).

    ## Why
    `SchedulerConfig.verify_max_model_len` stops the launch: "max_num_active_seqs
    (512) cannot be greater than max_num_seqs (256)." Active sequences are a
    subset of the scheduled ones; a larger cap means the launch was tuned for
    another `--max-num-seqs`.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --max-num-seqs 128 --max-num-active-seqs 256
    ```

    ## Fix
    Lower `--max-num-active-seqs` to at most `--max-num-seqs`, or raise
    `--max-num-seqs`.

    ## Evidence
    Both values as written. When `--max-num-seqs` is not written, its default
    depends on the GPU (256 below 70 GiB of memory, 1024 above, doubled by
    `--performance-mode throughput`; `derive.scheduler.batches`): the rule
    reports only when `--max-num-active-seqs` exceeds the default on every
    GPU the target may be, and says so.

    ## vLLM source
    `SchedulerConfig.verify_max_model_len`, after the two checks of
    `--max-num-batched-tokens` (SL303, SL304), which vLLM reports first.
    """

    code = "SL328"
    name = "max-num-active-seqs-above-max-num-seqs"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--max-num-active-seqs"
    partners = ("--max-num-seqs",)
    requires = ("--max-num-active-seqs",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        active = value_of(ctx.invocation, "max_num_active_seqs")
        if active.how != "flag" or not isinstance(active.value, int):
            return
        seqs = value_of(ctx.invocation, "max_num_seqs")
        if seqs.how == "flag":
            if not isinstance(seqs.value, int):
                return
            sizes, largest = None, seqs.value
        else:
            if seqs.how == "unknown":
                return  # written, but not known from the file
            sizes = batches(ctx)
            if not sizes:
                return  # the default depends on what servelint cannot tell (a MoE DP launch, the model)
            largest = max(b.seqs for b in sizes)
        if active.value <= largest:
            return
        flag = active.flags[-1]
        message = f"max_num_active_seqs ({active.value}) cannot be greater than max_num_seqs ({largest})."
        shown = message
        if sizes is not None:
            shown = (f"max_num_active_seqs ({active.value}) cannot be greater than max_num_seqs, whose default on "
                     f"{'any GPU' if len(sizes) > 1 else sizes[0].device} is at most {largest}")
            message = None  # the number vLLM prints depends on the GPU
        yield Finding(flag.name_span, shown, flag=flag.canonical, vllm_message=message, path=flag.path,
                      data={"vllm_source": vllm_source(ctx, _CHECK.key)})
