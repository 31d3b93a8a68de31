"""SL319: LoRA with speculative decoding and too small a token budget."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import last_flag, value_of
from ...derive.scheduler import batches
from ...derive.speculative import SPECULATIVE_DESTS, speculative_args
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related


class LoraSpecBatchedTokens(Rule):
    """LoRA with speculative decoding and too small a token budget.

    ## What it does
    Reports `--enable-lora` with a speculative config whose
    `num_speculative_tokens` is k when `max_num_batched_tokens` is below
    `max_num_seqs * (k + 1)`. Unwritten sizes take their defaults
    (see `max-num-batched-tokens-ge-max-num-seqs`); when those differ by GPU
    and the GPUs disagree, the rule stays silent. With the defaults on a
    CUDA GPU, k of 16 or more always fails, 7 or less never does.

    ## Why
    vLLM sizes its LoRA kernels for every sequence's speculative tokens in
    one step and stops with "Consider increasing max_num_batched_tokens or
    decreasing num_speculative_tokens".

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora \\
        --speculative-config '{"method": "ngram", "num_speculative_tokens": 8}' \\
        --max-num-batched-tokens 2048 --max-num-seqs 256
    ```

    ## Fix
    Raise `--max-num-batched-tokens` to `max_num_seqs * (k + 1)`, lower
    `--max-num-seqs`, or use fewer speculative tokens.

    ## Evidence
    A written `--enable-lora`, the speculative config's
    `num_speculative_tokens` as written, and the scheduler sizes as for
    `max-num-batched-tokens-ge-max-num-seqs` (written, or the defaults on
    every device class of the declared target); silent when they are not
    known or the device classes disagree.

    ## vLLM source
    `EngineArgs.create_engine_config`.
    """

    code = "SL319"
    vllm_checks = (VllmCheck("lora_spec", "decreasing num_speculative_tokens", "vllm/engine/arg_utils.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "lora-spec-batched-tokens"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--max-num-batched-tokens"
    partners = ("--enable-lora", "--speculative-config", "--max-num-seqs")
    requires = ("--enable-lora",)
    reads = SPECULATIVE_DESTS | {"enable_lora", "model", "hf_overrides", "max_num_batched_tokens", "max_num_seqs",
                         "max_model_len", "enable_chunked_prefill", "performance_mode", "tensor_parallel_size",
                         "pipeline_parallel_size", "all2all_backend", "enable_expert_parallel",
                         "data_parallel_size"}

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        lora = value_of(inv, "enable_lora")
        if lora.how != "flag" or not lora.value:
            return
        s = speculative_args(ctx)
        if s is None:
            return
        k = s.tokens
        if not is_int(k):
            return
        found = batches(ctx)
        if not found or not all(b.tokens < b.seqs * (k + 1) for b in found):
            return
        message = "Consider increasing max_num_batched_tokens or decreasing num_speculative_tokens"
        b = found[0]
        if len({(x.tokens, x.seqs) for x in found}) == 1:
            note = f"max_num_batched_tokens {b.tokens} < max_num_seqs {b.seqs} x (num_speculative_tokens {k} + 1)"
            if not (b.tokens_written and b.seqs_written):
                note += f", with the defaults on {b.device}"
        else:
            note = f"with the default sizes on every GPU, max_num_batched_tokens < max_num_seqs x {k + 1}"
        tokens_flag = last_flag(inv, "max_num_batched_tokens")
        anchor = tokens_flag if tokens_flag is not None else s.anchor
        rel = related(ctx, lora.flags, "LoRA turned on by {flag}")
        rel += related(ctx, [s.anchor], "speculative decoding set by {flag}")
        seqs_flag = last_flag(inv, "max_num_seqs")
        if seqs_flag is not None:
            rel += related(ctx, [seqs_flag], "max_num_seqs set by {flag}")
        yield finding(ctx, anchor, message, "lora_spec", note=note, related_to=[r for r in rel if r.span != anchor.name_span])
