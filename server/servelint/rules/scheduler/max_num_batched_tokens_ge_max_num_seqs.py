"""SL304: `--max-num-seqs` above the token budget per step."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import last_flag, value_of
from ...derive.scheduler import batches
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related


class BatchedTokensBelowNumSeqs(Rule):
    """`--max-num-seqs` above the token budget per step.

    ## What it does
    Reports `--max-num-seqs` greater than `max_num_batched_tokens`: the
    written `--max-num-batched-tokens`, or its default when that is smaller
    on every device class of the target (`cuda`/`rocm`: 2048 below 70 GiB
    or on A100s, 8192 from 70 GiB, 16384 from 160 GiB (0.28.0+), doubled by
    `--performance-mode throughput`; `cpu`: 2048 per rank). An unwritten
    `--max-num-seqs` is capped by vLLM and never fails.

    ## Why
    Every scheduled sequence needs at least one token of the budget, so vLLM
    stops with "max_num_batched_tokens (2048) must be greater than or equal
    to max_num_seqs (4096)."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --max-num-seqs 512 --max-num-batched-tokens 256
    ```

    ## Fix
    Lower `--max-num-seqs`, or raise `--max-num-batched-tokens` to at least
    as many tokens.

    ## Evidence
    A written `--max-num-seqs`, and `--max-num-batched-tokens` as written or
    its default on every device class of the declared target (for the
    default, the model's architecture and length too: a multimodal model or
    a batched data-parallel MoE launch has other defaults, and the rule
    stays silent). Reported only when every device class fails.

    ## vLLM source
    `SchedulerConfig.verify_max_model_len`; the defaults:
    `EngineArgs.get_batch_defaults` and
    `_set_default_max_num_seqs_and_batched_tokens_args`
    (vllm/engine/arg_utils.py).
    """

    code = "SL304"
    vllm_checks = (VllmCheck("tokens_lt_seqs", "be greater than or equal to max_num_seqs", "vllm/config/scheduler.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "max-num-batched-tokens-ge-max-num-seqs"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--max-num-seqs"
    partners = ("--max-num-batched-tokens",)
    requires = (
        "--all2all-backend", "--data-parallel-size", "--enable-chunked-prefill", "--enable-expert-parallel",
        "--hf-overrides", "--max-model-len", "--max-num-batched-tokens", "--max-num-seqs",
        "--performance-mode", "--pipeline-parallel-size", "--tensor-parallel-size",
    )
    reads = frozenset({"model", "hf_overrides", "max_num_batched_tokens", "max_num_seqs", "max_model_len",
                       "enable_chunked_prefill", "performance_mode", "tensor_parallel_size",
                       "pipeline_parallel_size", "all2all_backend", "enable_expert_parallel", "data_parallel_size"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        seqs = value_of(inv, "max_num_seqs")
        if seqs.how != "flag" or not is_int(seqs.value):
            return
        found = batches(ctx)
        if not found or not all(b.tokens < b.seqs for b in found):
            return
        token_values = sorted({b.tokens for b in found})
        tokens_flag = last_flag(inv, "max_num_batched_tokens")
        if len(token_values) == 1:
            message = (
                f"max_num_batched_tokens ({token_values[0]}) must be greater than or equal to "
                f"max_num_seqs ({seqs.value})."
            )
            shown = None
            note = "" if found[0].tokens_written else f"the default max_num_batched_tokens on {found[0].device}"
        else:
            message = None  # vLLM's text names the one the GPU gets
            shown = (
                f"max_num_batched_tokens must be greater than or equal to max_num_seqs ({seqs.value}); "
                f"its default is {', '.join(map(str, token_values[:-1]))} or {token_values[-1]} depending on "
                "the GPU's memory"
            )
            note = ""
        rel = []
        if tokens_flag is not None:
            rel = related(ctx, [tokens_flag], "max_num_batched_tokens set by {flag}")
        yield finding(ctx, seqs.flags[-1], message, "tokens_lt_seqs", message=shown, note=note, related_to=rel)
