"""SL647: Mamba cache stochastic rounding without a float16 SSM cache."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of, written
from ...derive.mamba import mamba_backend, stochastic_rounding
from ...derive.model import arch_facts, model_config
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, release_has, vllm_message

_CHECK = VllmCheck("vllm.mamba_stochastic_rounding_fp16", "Stochastic rounding for Mamba cache requires "
                   "the SSM cache to be float16.", "vllm/config/vllm.py")
# ``NemotronHForCausalLMConfig.update_mamba_ssm_cache_dtype``
# (model_executor/models/config.py): "auto" becomes config.json's
# ``mamba_ssm_cache_dtype``, else float32, before the check.
_NEMOTRON_HOOK = VllmCheck("vllm.nemotronh_ssm_cache_dtype",
                           'hf_config, "mamba_ssm_cache_dtype", cls.DEFAULT_MAMBA_SSM_CACHE_DTYPE',
                           "vllm/model_executor/models/config.py", code=True)


def _ssm_cache_dtype(ctx: Context) -> tuple[str | None, str]:
    """``cache_config.mamba_ssm_cache_dtype`` when the check reads it, and how."""
    inv = ctx.invocation
    v = value_of(inv, "mamba_ssm_cache_dtype")
    if not v.known or not isinstance(v.value, str):
        return None, ""
    if v.value != "auto":
        return v.value, ""
    arch = arch_facts(ctx)
    if arch is None:
        return None, ""
    hook = arch.models_config_map
    if hook is None:
        return "auto", "the SSM cache dtype stays auto"
    if hook == "NemotronHForCausalLMConfig" and release_has(ctx, _NEMOTRON_HOOK.key) and not written(inv, "hf_overrides"):
        cfg = model_config(ctx)
        if cfg is None:
            return None, ""
        value = cfg.get("mamba_ssm_cache_dtype", "float32")
        if not isinstance(value, str):
            return None, ""
        return value, f"vLLM sets the SSM cache dtype of NemotronH models to {value} (from config.json or its default)"
    return None, ""  # another model hook may set it


class MambaStochasticRoundingRequiresFp16(Rule):
    """`--enable-mamba-cache-stochastic-rounding` without a float16 SSM cache.

    ## What it does
    Reports `--enable-mamba-cache-stochastic-rounding` when the Mamba SSM
    cache is not float16: a written `--mamba-ssm-cache-dtype` other than
    `float16`, or the default `auto`, which stays `auto` for most models
    and becomes the config.json's value (float32 by default) for NemotronH.

    ## Why
    Stochastic rounding is applied when writing the SSM state to a float16
    cache. vLLM stops while building its config: "Stochastic rounding for
    Mamba cache requires the SSM cache to be float16. Please set it
    explicitly, by specifying `--mamba-ssm-cache-dtype float16`, or disable
    stochastic rounding by not specifying
    `--enable-mamba-cache-stochastic-rounding`."

    ## Example
    ```sh
    vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --enable-mamba-cache-stochastic-rounding
    ```

    ## Fix
    Add `--mamba-ssm-cache-dtype float16`, or remove
    `--enable-mamba-cache-stochastic-rounding`.

    ## Evidence
    The flags as written and the model's architecture (its config hook);
    silent when another model hook may set the SSM cache dtype, or under
    `--hf-overrides`. With the default triton Mamba backend, `MambaConfig`
    refuses stochastic rounding first on GPUs other than data-center
    Blackwell; the finding says so.

    ## vLLM source
    `VllmConfig.__post_init__`, after the model's config hooks
    (`try_verify_and_update_config`).
    """

    code = "SL647"
    name = "mamba-stochastic-rounding-requires-fp16"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK, _NEMOTRON_HOOK)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enable-mamba-cache-stochastic-rounding"
    partners = ("--mamba-ssm-cache-dtype",)
    requires = ("--enable-mamba-cache-stochastic-rounding",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        sr = stochastic_rounding(ctx.invocation)
        if sr.how != "flag" or sr.value is not True or not sr.flags:
            return
        dtype, why = _ssm_cache_dtype(ctx)
        if dtype is None or dtype == "float16":
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        notes = [why] if why else []
        backend = mamba_backend(ctx.invocation)
        if ctx.target == "cuda" and backend.value == "TRITON":
            notes.append("on GPUs other than data-center Blackwell, vLLM refuses stochastic rounding with the "
                         "triton Mamba backend first")
        rel = related(ctx, written(ctx.invocation, "mamba_ssm_cache_dtype")[-1:], "SSM cache dtype set by {flag}")
        yield finding(ctx, sr.flags[-1], message, _CHECK.key, note="; ".join(notes), related_to=rel)
