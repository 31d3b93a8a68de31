"""Model and KV-cache data types vLLM refuses.

``_get_and_verify_dtype`` (vllm/config/model.py) refuses float16 for model
types that are numerically unstable in it; from 0.33.0 ``CacheConfig``
checks ``--kv-cache-dtype`` against its list of known types (earlier
releases let argparse do it, see `invalid-value`) and ``VllmConfig``
refuses a float16/bfloat16 KV cache that differs from the model's dtype.
"""

from __future__ import annotations

from typing import Iterable

from ..diagnostics import Category, Severity
from ..knowledge.validators import VllmCheck
from . import top_facts as tf
from . import vllm_state as st
from .base import Context, Finding, Rule

_REASON = "Numerical instability. Please use bfloat16 or float32 instead."

# _FLOAT16_NOT_SUPPORTED_MODELS (config/model.py): plamo2 left in 0.27.0.
_NO_FP16 = ("gemma2", "gemma3", "gemma3_text", "glm4")
_NO_FP16_OLD = _NO_FP16 + ("plamo2",)

# _STR_DTYPE_TO_TORCH_DTYPE (config/model.py 0.33.0:2384).
_DTYPES = {"half": "float16", "float16": "float16", "float": "float32", "float32": "float32", "bfloat16": "bfloat16"}

# CacheDType (config/cache.py 0.33.0:44), in its order.
KV_CACHE_DTYPES = [
    "auto", "float16", "bfloat16", "fp8", "fp8_e4m3", "fp8_e5m2", "fp8_inc", "fp8_ds_mla", "nvfp4_ds_mla",
    "turboquant_k8v4", "turboquant_4bit_nc", "turboquant_k3v4_nc", "turboquant_3bit_nc", "octave_k3v4",
    "octave_k3v3", "octave_k3v3_compact", "ultraquant_4bit", "int4_per_token_head", "int8_per_token_head",
    "fp8_per_token_head", "nvfp4", "nvfp4_4over6",
]


def _no_fp16(ctx: Context) -> tuple[str, ...]:
    return _NO_FP16 if tf.at_least(ctx, "0.27.0") else _NO_FP16_OLD


class Float16UnsupportedModel(Rule):
    """`--dtype float16` for a model type that does not support it.

    ## What it does
    Reports `--dtype half` / `--dtype float16` when the model's config.json
    has `model_type` `gemma2`, `gemma3`, `gemma3_text` or `glm4` (and
    `plamo2` up to 0.26.0).

    ## Why
    These models overflow in float16. vLLM stops with "The model type
    'gemma3_text' does not support float16. Reason: Numerical instability.
    Please use bfloat16 or float32 instead."

    ## Example
    ```sh
    vllm serve google/gemma-3-1b-it --dtype half
    ```

    ## Fix
    Use `--dtype bfloat16` (or `float32`, or `auto`: vLLM then avoids
    float16 for these models).

    ## vLLM source
    `_check_valid_dtype`, vllm/config/model.py: 0.25.0:2021, 0.26.0:2030,
    0.27.x:2124, 0.28.0:2206, 0.29.0:2262, 0.30.0:2271, 0.31.0:2349,
    0.32.0:2399, 0.33.0:2417; `_FLOAT16_NOT_SUPPORTED_MODELS` just above it;
    the model type is the top-level config's (`_get_and_verify_dtype` is
    called with `self.hf_config`, 0.33.0:806).
    """

    code = "SL312"
    vllm_checks = (VllmCheck("fp16", "does not support float16. Reason:", "vllm/config/model.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "dtype-float16-unsupported-model"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--dtype"
    reads = frozenset({"dtype", "model", "hf_overrides"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        dtype = st.value_of(inv, "dtype")
        if dtype.how != "flag" or not isinstance(dtype.value, str) or _DTYPES.get(dtype.value.lower()) != "float16":
            return
        cfg = tf.model_config(ctx)
        mtype = cfg.get("model_type") if cfg is not None else None
        if mtype not in _no_fp16(ctx):
            return
        message = f"The model type {mtype!r} does not support float16. Reason: {_REASON}"
        rel = [r for r in [tf.model_note(ctx)] if r is not None]
        yield tf.finding(ctx, dtype.flags[-1], message, "fp16", related_to=rel)


def model_dtype(ctx: Context) -> tuple[str | None, bool, str]:
    """``ModelConfig.dtype`` as a name, whether it holds on every GPU of the
    target, and how it was decided.

    A written ``--dtype`` decides.  ``auto`` takes the checkpoint's dtype
    (``dtype``/``torch_dtype`` of config.json, ``_resolve_auto_dtype``,
    config/model.py 0.33.0:2421): float16 stays float16 on every CUDA GPU
    vLLM runs on; bfloat16 becomes float16 on GPUs without bfloat16
    (compute capability below 8.0, platforms/cuda.py 0.33.0:257); float32 is
    downcast to the GPU's first supported type.  Returns (None, ...) when not
    known.
    """
    inv = ctx.invocation
    dtype = st.value_of(inv, "dtype")
    if dtype.how == "flag":
        if not isinstance(dtype.value, str):
            return None, False, ""
        name = dtype.value.lower()
        if name in _DTYPES:
            return _DTYPES[name], True, f"--dtype {dtype.value}"
        if name != "auto":
            return None, False, ""
    elif not dtype.known:
        return None, False, ""
    if ctx.target != "cuda":
        return None, False, ""
    cfg = tf.model_config(ctx)
    if cfg is None:
        return None, False, ""
    text = tf.text_config(ctx) or {}
    raw = cfg.get("dtype") or cfg.get("torch_dtype") or text.get("dtype") or text.get("torch_dtype")
    if raw not in ("float16", "bfloat16"):
        return None, False, ""
    if cfg.get("model_type") in _no_fp16(ctx):
        return None, False, ""
    arch = st.arch_facts(ctx)
    if arch is None or arch.is_pooling_model:
        return None, False, ""
    if raw == "float16":
        return "float16", True, "the checkpoint's dtype float16"
    return "bfloat16", False, "the checkpoint's dtype bfloat16, kept on GPUs with bfloat16 support"


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

    ## vLLM source
    `VllmConfig._reject_mismatched_float_kv_cache`, vllm/config/vllm.py
    0.33.0:1506 (called from `__post_init__` :1540, after the per-model
    config hooks); not in 0.32.0 and earlier.
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
    reads = frozenset({"kv_cache_dtype", "dtype", "quantization", "model", "hf_overrides"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        kv = st.value_of(inv, "kv_cache_dtype")
        if kv.how != "flag" or kv.value not in ("float16", "bfloat16"):
            return
        if st.written(inv, "quantization"):
            return
        arch = st.arch_facts(ctx)
        if arch is None or arch.models_config_map or arch.is_hybrid:
            return
        cfg = tf.model_config(ctx)
        if cfg is None or cfg.get("quantization_config") or cfg.get("compression_config"):
            return
        mdtype, certain, how = model_dtype(ctx)
        if mdtype is None or mdtype == kv.value:
            return
        allowed = f"`auto` or `{mdtype}`" if mdtype in ("float16", "bfloat16") else "`auto`"
        message = (
            f'kv_cache_dtype="{kv.value}" is incompatible with dtype="{mdtype}". '
            f"Please set `--kv-cache-dtype` to {allowed}."
        )
        dflags = st.written(inv, "dtype")
        rel = tf.related(ctx, dflags[-1:], "model dtype set by {flag}")
        severity = None if certain else Severity.WARNING
        yield tf.finding(ctx, kv.flags[-1], message, "kv_float", note=f"model dtype from {how}",
                         related_to=rel, severity=severity)


class KvCacheDtypeUnknown(Rule):
    """`--kv-cache-dtype` that is not a KV-cache data type.

    ## What it does
    From 0.33.0, where `--kv-cache-dtype` accepts any string on the command
    line, reports a value that is not one of vLLM's KV-cache types (`auto`,
    `float16`, `bfloat16`, `fp8`, `fp8_e4m3`, `fp8_e5m2`, ...). Up to
    0.32.0 argparse checks the choices and `invalid-value` reports it; from
    0.33.0 `invalid-value` leaves the value to this rule, so a bad value is
    reported once, with vLLM's message.

    ## Why
    vLLM checks the value while building its config: "Invalid
    kv_cache_dtype: 'fp9'. Valid values are: ['auto', 'float16', ...]".
    Values are case-sensitive.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --kv-cache-dtype fp8_e4m3fn
    ```

    ## Fix
    Use one of the listed values. A type that a platform plugin registers
    is not known to servelint: suppress the diagnostic for it.

    ## vLLM source
    `CacheConfig._validate_cache_dtype`, vllm/config/cache.py 0.33.0:473;
    the list: `CacheDType` (:44), mirrored by `KV_CACHE_DTYPES` (:73).
    """

    code = "SL314"
    vllm_checks = (VllmCheck("kv_unknown", "Invalid kv_cache_dtype: ", "vllm/config/cache.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "kv-cache-dtype-unknown"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    since = "0.33.0"
    anchor = "--kv-cache-dtype"
    reads = frozenset({"kv_cache_dtype"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        kv = st.value_of(inv, "kv_cache_dtype")
        if kv.how != "flag" or not isinstance(kv.value, str):
            return
        opt = inv.knowledge.by_dest.get("kv_cache_dtype")
        if opt is not None and opt.choices:
            return  # argparse checks it (invalid-value)
        if kv.value in KV_CACHE_DTYPES:
            return
        message = f"Invalid kv_cache_dtype: {kv.value!r}. Valid values are: {KV_CACHE_DTYPES}"
        close = [d for d in KV_CACHE_DTYPES if d == kv.value.lower() or d in kv.value or kv.value in d]
        note = f"did you mean {' or '.join(close[:3])}?" if close else ""
        yield tf.finding(ctx, kv.flags[-1], message, "kv_unknown",
                         message=f"Invalid kv_cache_dtype: {kv.value!r}", note=note)
