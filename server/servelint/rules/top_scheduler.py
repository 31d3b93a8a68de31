"""Scheduler budgets that contradict each other.

``SchedulerConfig.verify_max_model_len`` (vllm/config/scheduler.py) refuses a
token budget per step (``--max-num-batched-tokens``) smaller than the model
length when chunked prefill is off, and smaller than the number of
sequences per step (``--max-num-seqs``).  Unwritten budgets take defaults
that depend on the GPU's memory; the rules judge only what every device
class of the declared target agrees on (``top_facts.batches``).
"""

from __future__ import annotations

from typing import Iterable

from ..diagnostics import Category, Severity
from ..knowledge.validators import VllmCheck
from . import top_facts as tf
from . import vllm_state as st
from .base import Context, Finding, Rule


class BatchedTokensBelowModelLen(Rule):
    """`--max-num-batched-tokens` below the model length with chunked prefill off.

    ## What it does
    Reports a written `--max-num-batched-tokens` smaller than
    `max_model_len` (the written `--max-model-len`, or the length derived
    from the model's config.json) when chunked prefill is off: turned off
    with `--no-enable-chunked-prefill`, or off for encoder-decoder models.

    ## Why
    Without chunked prefill a prompt must fit in one step, so vLLM stops
    with "max_num_batched_tokens (1024) is smaller than max_model_len
    (4096). This effectively limits the maximum sequence length to
    max_num_batched_tokens and makes vLLM reject longer sequences. ..."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --no-enable-chunked-prefill --max-num-batched-tokens 4096
    ```

    ## Fix
    Raise `--max-num-batched-tokens` to at least `max_model_len`, lower
    `--max-model-len`, or leave chunked prefill on.

    ## vLLM source
    `SchedulerConfig.verify_max_model_len`, vllm/config/scheduler.py:
    0.25.0/0.26.0:279, 0.27.x/0.28.0:256, 0.29.0:291, 0.30.0:302,
    0.31.0:322, 0.32.0:321, 0.33.0:324; chunked-prefill default:
    `ModelConfig.is_chunked_prefill_supported` (config/model.py 0.33.0:2188).
    """

    code = "SL303"
    vllm_checks = (VllmCheck("tokens_lt_len", "smaller than max_model_len", "vllm/config/scheduler.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "max-num-batched-tokens-lt-max-model-len"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--max-num-batched-tokens"
    partners = ("--max-model-len", "--enable-chunked-prefill")
    reads = frozenset({"model", "hf_overrides", "max_num_batched_tokens", "max_model_len", "enable_chunked_prefill",
                       "disable_sliding_window", "runner", "convert"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        tokens = st.value_of(inv, "max_num_batched_tokens")
        if tokens.how != "flag" or not tf.is_int(tokens.value):
            return
        chunked = tf.chunked_prefill(ctx)
        if chunked.value is not False:
            return
        mml = tf.max_model_len(ctx)
        if mml is None or tokens.value >= mml.value:
            return
        message = (
            f"max_num_batched_tokens ({tokens.value}) is smaller than max_model_len ({mml.value}). "
            "This effectively limits the maximum sequence length to max_num_batched_tokens and makes vLLM "
            "reject longer sequences. Please increase max_num_batched_tokens or decrease max_model_len."
        )
        rel = tf.related(ctx, chunked.flags, "chunked prefill turned off by {flag}")
        rel += tf.related(ctx, mml.flags, "max_model_len set by {flag}")
        notes = []
        if chunked.how != "flag" and chunked.why:
            notes.append(chunked.why)
        if mml.how == "derived":
            notes.append(f"max_model_len {mml.value} derived from the model's config.json")
            if (r := tf.model_note(ctx)) is not None:
                rel.append(r)
        yield tf.finding(ctx, tokens.flags[-1], message, "tokens_lt_len", note="; ".join(notes), related_to=rel)


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

    ## vLLM source
    `SchedulerConfig.verify_max_model_len`, vllm/config/scheduler.py:
    0.25.0/0.26.0:289, 0.27.x/0.28.0:266, 0.29.0:301, 0.30.0:312,
    0.31.0:332, 0.32.0:331, 0.33.0:334; defaults:
    `EngineArgs.get_batch_defaults` and
    `_set_default_max_num_seqs_and_batched_tokens_args`
    (engine/arg_utils.py 0.28.0:2582/2757, 0.33.0:2970/3151).
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
    reads = frozenset({"model", "hf_overrides", "max_num_batched_tokens", "max_num_seqs", "max_model_len",
                       "enable_chunked_prefill", "performance_mode", "tensor_parallel_size",
                       "pipeline_parallel_size", "all2all_backend", "enable_expert_parallel", "data_parallel_size"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        seqs = st.value_of(inv, "max_num_seqs")
        if seqs.how != "flag" or not tf.is_int(seqs.value):
            return
        found = tf.batches(ctx)
        if not found or not all(b.tokens < b.seqs for b in found):
            return
        token_values = sorted({b.tokens for b in found})
        tokens_flag = st.last_flag(inv, "max_num_batched_tokens")
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
            rel = tf.related(ctx, [tokens_flag], "max_num_batched_tokens set by {flag}")
        yield tf.finding(ctx, seqs.flags[-1], message, "tokens_lt_seqs", message=shown, note=note, related_to=rel)
