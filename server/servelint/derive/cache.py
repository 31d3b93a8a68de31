"""``CacheConfig`` as the validators see it: prefix caching, the Mamba cache
mode, ReplaySSM.

The ReplaySSM and ``--mamba-block-size`` validators of ``VllmConfig``
(``vllm/config/vllm.py``) look at ``CacheConfig`` after
``EngineArgs.create_engine_config`` filled in the defaults of the release,
the model's config hooks adjusted them and ``VllmConfig.__post_init__``
ran.  Line numbers are of each release's unpacked wheel, ``vllm/...``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import UNKNOWN, Derived, at_least
from .flags import last_flag, value_of
from .model import arch_facts, is_mamba_model, uses_mla

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Flag, Invocation
    from .view import View

def replayssm_flag(inv: "Invocation") -> "Flag | None":
    """The ``--use-replayssm`` flag that turns ReplaySSM on, or None.

    ``CacheConfig.use_replayssm`` is a plain boolean flag (0.27.0+
    ``engine/arg_utils.py`` ``--use-replayssm``); the last spelling wins, so
    ``--use-replayssm --no-use-replayssm`` leaves it off.
    """
    flag = last_flag(inv, "use_replayssm")
    if flag is None or not flag.exact or flag.unexpected_value is not None or flag.negated:
        return None
    return flag


def prefix_caching(ctx: "View") -> Derived:
    """``CacheConfig.enable_prefix_caching`` as the validators see it.

    ``--enable-prefix-caching`` defaults to None and
    ``EngineArgs._set_default_chunked_prefill_and_prefix_caching_args``
    replaces None with the model's default (engine/arg_utils.py):

    * up to 0.27.1: off for hybrid models: ``is_prefix_caching_supported
      and not is_hybrid`` (0.26.0 :2520, 0.27.1 :2604-2606); in 0.25.0
      (:2484) ``is_prefix_caching_supported`` itself is False for "hybrid"
      (config/model.py :1845);
    * 0.28.0+: ``is_prefix_caching_supported`` (0.28.0 :2650, 0.29.0 :2766,
      0.30.0 :2798, 0.31.0 :2926, 0.32.0 :2991, 0.33.0 :3045), which for a
      generative model is True for "hybrid" and "decoder" and False for
      "attention_free" and "encoder_decoder" (config/model.py
      ``is_prefix_caching_supported``, 0.28.0 :2034, 0.33.0 :2239).

    Then, on the CPU platform, ``CpuPlatform.check_and_update_config`` turns
    it off for MLA models (platforms/cpu.py, 0.28.0 :353, 0.29.0 :448); from
    0.30.0 (:490, 0.33.0 :543) only when the CPU has no AMX tiles (x86
    Sapphire Rapids and later have them).  servelint assumes a CPU without
    AMX, as most are (and as the machine the oracle ran on).
    """
    inv = ctx.invocation
    version = ctx.version
    explicit = value_of(inv, "enable_prefix_caching")
    if explicit.how == "flag":
        value = explicit
    elif explicit.how == "default" and explicit.value is not None:
        value = Derived(bool(explicit.value), "default")
    elif not explicit.known and last_flag(inv, "enable_prefix_caching") is not None:
        return UNKNOWN
    else:
        value = _default_prefix_caching(ctx)
    if ctx.target == "cpu" and value.value and at_least(version, "0.28.0"):
        mla = uses_mla(ctx)
        if mla is None:
            return UNKNOWN
        if mla:
            if at_least(version, "0.30.0"):
                why = f"vLLM {version} turns prefix caching off for MLA models on CPUs without AMX"
            else:
                why = f"vLLM {version} turns prefix caching off for MLA models on CPU"
            return Derived(False, "platform", why)
    return value


def _default_prefix_caching(ctx: "View") -> Derived:
    arch = arch_facts(ctx)
    version = ctx.version
    if arch is None:
        return UNKNOWN
    if arch.is_pooling_model and not arch.is_text_generation_model:
        return UNKNOWN  # pooling defaults depend on the pooler
    model = ctx.model
    if model is not None and model.config is not None and model.config.get("is_encoder_decoder") is True:
        return Derived(False, "default", f"prefix caching is off by default for encoder-decoder models in vLLM {version}")
    if arch.is_hybrid:
        if not at_least(version, "0.28.0"):
            return Derived(False, "default", f"prefix caching is off by default for hybrid models in vLLM {version}")
        return Derived(True, "default", f"prefix caching is on by default for hybrid models in vLLM {version}")
    if arch.is_attention_free:
        return Derived(False, "default", f"prefix caching is off by default for attention-free models in vLLM {version}")
    return Derived(True, "default", f"prefix caching is on by default in vLLM {version}")


def mamba_cache_mode(ctx: "View") -> Derived:
    """``CacheConfig.mamba_cache_mode`` after ``MambaModelConfig`` adjusted it.

    ``--mamba-cache-mode`` defaults to "none" (config/cache.py) and reaches
    CacheConfig through ``create_engine_config`` up to 0.32.0
    (engine/arg_utils.py, 0.28.0 :2010, 0.32.0 :2283); 0.33.0 ignores the
    flag (deprecated, :2304-2305, not passed on).  For a Mamba model
    ``MambaModelConfig.verify_and_update_config``
    (model_executor/models/config.py, 0.27.1 :600, 0.28.0 :589, 0.29.0 :609,
    0.30.0 :609, 0.31.0 :627, 0.32.0 :672, 0.33.0 :750) then sets:

    * prefix caching off: "none";
    * prefix caching on, 0.27.x: "none" becomes "all" if the model supports
      Mamba prefix caching, else "align"; "all" without that support becomes
      "align";
    * prefix caching on, 0.28.0-0.31.0: "none" becomes "align"; "all" stays
      only for models that support Mamba prefix caching;
    * prefix caching on, 0.32.0+: "none" becomes "align" ("all" is no longer
      a choice of the flag).

    Other models keep the flag's value.
    """
    inv = ctx.invocation
    version = ctx.version
    if at_least(version, "0.33.0"):
        requested = Derived("none", "default")
    else:
        requested = value_of(inv, "mamba_cache_mode")
        if not requested.known:
            return UNKNOWN
    mamba = is_mamba_model(ctx)
    if mamba is None:
        return UNKNOWN
    if not mamba:
        return requested
    pc = prefix_caching(ctx)
    if not pc.known:
        return UNKNOWN
    flags = requested.flags + pc.flags
    pc_why = pc.why if pc.how != "flag" else ""
    if not pc.value:
        return Derived("none", pc.how, pc_why, flags)
    mode = requested.value
    supports = _supports_mamba_prefix_caching(ctx)
    if mode == "none":
        if not at_least(version, "0.28.0"):
            if supports is None:
                return UNKNOWN
            mode = "all" if supports else "align"
            why = f"with prefix caching on, vLLM {version} uses Mamba cache mode '{mode}' for this model"
            return Derived(mode, "default", "; ".join(w for w in (pc_why, why) if w), flags)
        return Derived("align", "default", pc_why, flags)
    if mode == "all":
        if supports is None:
            return UNKNOWN
        if not supports:
            return Derived("align", "default", "this model falls back to Mamba cache mode 'align'", flags)
        return Derived("all", "flag", pc_why, flags)
    return Derived(mode, requested.how, pc_why, flags)


def _supports_mamba_prefix_caching(ctx: "View") -> bool | None:
    """``ModelConfig.supports_mamba_prefix_caching`` (0.27.0-0.32.0), from the
    generated ``_ModelInfo``; the field is gone in 0.33.0."""
    arch = arch_facts(ctx)
    if arch is None:
        return None
    try:
        value = arch.supports_mamba_prefix_caching
    except AttributeError:
        return None
    return None if value is None else bool(value)


def replayssm_buffer_len(inv: "Invocation") -> Derived:
    """``CacheConfig.replayssm_buffer_len`` (default 16, ``gt=0``)."""
    v = value_of(inv, "replayssm_buffer_len")
    if not v.known or not isinstance(v.value, int) or v.value <= 0:
        return UNKNOWN
    return v


# ``CacheDType`` (vllm/config/cache.py 0.33.0 :44), in its order: from 0.33.0
# ``--kv-cache-dtype`` is a plain string checked against this list by
# ``CacheConfig._validate_cache_dtype`` (``KV_CACHE_DTYPES``, :73), which
# prints it; up to 0.32.0 argparse checks the choices.  The set is the
# option's listed values in the generated flag table
# (tests/rules/test_generated_facts.py checks they agree).
KV_CACHE_DTYPES = (
    "auto", "float16", "bfloat16", "fp8", "fp8_e4m3", "fp8_e5m2", "fp8_inc", "fp8_ds_mla", "nvfp4_ds_mla",
    "turboquant_k8v4", "turboquant_4bit_nc", "turboquant_k3v4_nc", "turboquant_3bit_nc", "octave_k3v4",
    "octave_k3v3", "octave_k3v3_compact", "ultraquant_4bit", "int4_per_token_head", "int8_per_token_head",
    "fp8_per_token_head", "nvfp4", "nvfp4_4over6",
)

