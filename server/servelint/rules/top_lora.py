"""LoRA launches vLLM refuses: on a model class without LoRA support, and
with speculative decoding when the token budget cannot hold every
sequence's speculative tokens."""

from __future__ import annotations

from typing import Iterable

from ..diagnostics import Applicability, Category, Severity
from ..knowledge.validators import VllmCheck
from . import top_facts as tf
from . import top_speculative as sp
from . import vllm_state as st
from .base import Context, Finding, Rule


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

    ## vLLM source
    `EngineArgs.create_engine_config`, vllm/engine/arg_utils.py:
    0.25.0:2209, 0.26.0:2241, 0.27.x:2328, 0.28.0:2369, 0.29.0:2485,
    0.30.0:2489, 0.31.0:2615, 0.32.0:2682, 0.33.0:2723.
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
    reads = sp._READS | {"enable_lora", "model", "hf_overrides", "max_num_batched_tokens", "max_num_seqs",
                         "max_model_len", "enable_chunked_prefill", "performance_mode", "tensor_parallel_size",
                         "pipeline_parallel_size", "all2all_backend", "enable_expert_parallel",
                         "data_parallel_size"}

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        lora = st.value_of(inv, "enable_lora")
        if lora.how != "flag" or not lora.value:
            return
        s = sp.spec(ctx)
        if s is None:
            return
        k = sp._tokens(s)
        if not tf.is_int(k):
            return
        found = tf.batches(ctx)
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
        tokens_flag = st.last_flag(inv, "max_num_batched_tokens")
        anchor = tokens_flag if tokens_flag is not None else s.anchor
        rel = tf.related(ctx, lora.flags, "LoRA turned on by {flag}")
        rel += tf.related(ctx, [s.anchor], "speculative decoding set by {flag}")
        seqs_flag = st.last_flag(inv, "max_num_seqs")
        if seqs_flag is not None:
            rel += tf.related(ctx, [seqs_flag], "max_num_seqs set by {flag}")
        yield tf.finding(ctx, anchor, message, "lora_spec", note=note, related_to=[r for r in rel if r.span != anchor.name_span])


class LoraUnsupportedModel(Rule):
    """`--enable-lora` for a model class without LoRA support.

    ## What it does
    From 0.33.0, reports `--enable-lora` when the model's architecture does
    not implement the `SupportsLoRA` interface in that release (Mamba,
    Mamba2 and many multimodal models...). When the architecture is only
    inferred from the model's name the diagnostic is a warning.

    ## Why
    vLLM 0.33.0 checks this while building its config and stops with "LoRA
    is not supported for Mamba2ForCausalLM (...). Supported models implement
    the `SupportsLoRA` interface. Run this model without `enable_lora`."
    Earlier releases failed later, when loading the model.

    ## Example
    ```sh
    vllm serve state-spaces/mamba-2.8b-hf --enable-lora
    ```

    ## Fix
    Remove `--enable-lora` (and `--lora-modules`), or use a model with LoRA
    support.


    ## Fix safety
    Unsafe: removing `--enable-lora` (and its adapters) turns a feature off.
    ## vLLM source
    `LoRAConfig.verify_with_model_config`, vllm/config/lora.py 0.33.0:150
    (`ModelConfig.is_lora_supported`: `_ModelInfo.supports_lora`,
    config/model.py 0.33.0:2033).
    """

    code = "SL320"
    fixes = frozenset({Applicability.UNSAFE})
    vllm_checks = (VllmCheck("lora_arch", "`SupportsLoRA` interface. Run this model without", "vllm/config/lora.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "lora-unsupported-model"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.33.0"
    anchor = "--enable-lora"
    reads = frozenset({"enable_lora", "model", "hf_overrides", "model_impl", "runner", "convert"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        lora = st.value_of(inv, "enable_lora")
        if lora.how != "flag" or not lora.value:
            return
        if any(st.written(inv, d) for d in ("model_impl", "runner", "convert")):
            return
        arch = st.arch_facts(ctx)
        if arch is None or arch.supports_lora is not False:
            return
        model = ctx.model
        if model is not None and model.alternatives:
            return
        message = (
            f"LoRA is not supported for {ctx.architecture} ({inv.model_name}). Supported models implement "
            "the `SupportsLoRA` interface. Run this model without `enable_lora`."
        )
        severity = None
        note = ""
        if model is not None and model.inferred:
            severity = Severity.WARNING
            note = f"architecture {model.architecture} inferred from {model.detail.removeprefix('inferred from ')}"
        fix = tf.removal_fix(ctx, st.written(inv, "enable_lora"), "Remove --enable-lora")
        yield tf.finding(ctx, lora.flags[-1], message, "lora_arch", note=note, severity=severity,
                         fixes=[fix] if fix else None)
