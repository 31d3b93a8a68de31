"""SL313: `--kv-cache-dtype float16/bfloat16` that differs from the model's dtype."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of, written
from ...derive.model import arch_facts, dtype, model_config
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related


class KvCacheDtypeMismatch(Rule):
    """`--kv-cache-dtype float16/bfloat16` that differs from the model's dtype.

    ## What it does
    From 0.33.0, reports `--kv-cache-dtype float16` or `bfloat16` when the
    model runs in another dtype: the written `--dtype`, or with `--dtype
    auto` the checkpoint's dtype. With `auto` and a bfloat16 checkpoint the
    answer depends on the GPU (GPUs without bfloat16, compute capability
    below 8.0, run it in float16), so it is a warning. Silent for
    quantized launches and models whose config hooks may change the KV
    cache (hybrid models, DeepSeek V3.2...).

    ## Why
    A float KV cache must match the activations. vLLM stops with
    "kv_cache_dtype="float16" is incompatible with dtype="bfloat16". Please
    set `--kv-cache-dtype` to `auto` or `bfloat16`."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --dtype bfloat16 --kv-cache-dtype float16
    ```

    ## Fix
    Use `--kv-cache-dtype auto` (the model's dtype), or match `--dtype`.

    ## Evidence
    A written `--kv-cache-dtype`, and the model's dtype: the written
    `--dtype`, or with `auto` the checkpoint's dtype in its config.json on
    a `cuda` target. Silent with `--quantization`, for a quantized
    checkpoint, without a config.json, and for models whose config hooks
    may change the KV cache.

    ## vLLM source
    `VllmConfig._reject_mismatched_float_kv_cache` (called from
    `__post_init__`, after the per-model config hooks); not in 0.32.0 and
    earlier.
    """

    code = "SL313"
    vllm_checks = (VllmCheck("kv_float", "Please set `--kv-cache-dtype` to", "vllm/config/vllm.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "kv-cache-dtype-float-mismatch"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.33.0"
    anchor = "--kv-cache-dtype"
    partners = ("--dtype",)
    requires = ("--dtype", "--hf-overrides", "--kv-cache-dtype", "--quantization")
    reads = frozenset({"kv_cache_dtype", "dtype", "quantization", "model", "hf_overrides"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        kv = value_of(inv, "kv_cache_dtype")
        if kv.how != "flag" or kv.value not in ("float16", "bfloat16"):
            return
        if written(inv, "quantization"):
            return
        arch = arch_facts(ctx)
        if arch is None or arch.models_config_map or arch.is_hybrid:
            return
        cfg = model_config(ctx)
        if cfg is None or cfg.get("quantization_config") or cfg.get("compression_config"):
            return
        mdtype, certain, how = dtype(ctx)
        if mdtype is None or mdtype == kv.value:
            return
        allowed = f"`auto` or `{mdtype}`" if mdtype in ("float16", "bfloat16") else "`auto`"
        message = (
            f'kv_cache_dtype="{kv.value}" is incompatible with dtype="{mdtype}". '
            f"Please set `--kv-cache-dtype` to {allowed}."
        )
        dflags = written(inv, "dtype")
        rel = related(ctx, dflags[-1:], "model dtype set by {flag}")
        severity = None if certain else Severity.WARNING
        yield finding(ctx, kv.flags[-1], message, "kv_float", note=f"model dtype from {how}",
                      related_to=rel, severity=severity)
