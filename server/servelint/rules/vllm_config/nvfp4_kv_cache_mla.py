"""SL648: an nvfp4 KV cache on a model that runs with MLA."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.model import uses_mla
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, vllm_message

_CHECK = VllmCheck("vllm.nvfp4_kv_cache_mla", "nvfp4 KV cache is not supported with MLA", "vllm/config/vllm.py")


class Nvfp4KvCacheMla(Rule):
    """`--kv-cache-dtype nvfp4` on an MLA model (DeepSeek and the like).

    ## What it does
    Reports a `--kv-cache-dtype` starting with `nvfp4` (but not an
    `*_ds_mla` layout) when the model runs with Multi-head Latent
    Attention: an MLA model type with a `kv_lora_rank` in its config.json.

    ## Why
    The plain nvfp4 layout (head_size/2 + head_size/16 bytes per head) does
    not apply to MLA's latent cache. vLLM stops while validating its
    config: "nvfp4 KV cache is not supported with MLA (Multi-head Latent
    Attention) backends. Please use a different --kv-cache-dtype (e.g.,
    'fp8', 'auto', or 'nvfp4_ds_mla' with a sparse MLA backend) for MLA
    models such as DeepSeek."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --kv-cache-dtype nvfp4
    ```

    ## Fix
    Use `--kv-cache-dtype fp8` (or `auto`), or an `nvfp4_ds_mla` layout
    where the release and a sparse MLA backend offer it.

    ## Evidence
    `--kv-cache-dtype` as written and the model's config.json (MLA as
    `derive.model.uses_mla` reads it); silent when `VLLM_MLA_DISABLE` is
    set, which turns MLA off.

    ## vLLM source
    `VllmConfig.validate_nvfp4_kv_cache_with_mla`, a model validator run
    after `__post_init__` (the `_ds_mla` exception from 0.30.0, where those
    layouts exist).
    """

    code = "SL648"
    name = "nvfp4-kv-cache-mla"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--kv-cache-dtype"
    requires = ("--kv-cache-dtype",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        kv = value_of(ctx.invocation, "kv_cache_dtype")
        if kv.how != "flag" or not isinstance(kv.value, str) or not kv.flags:
            return
        if not kv.value.startswith("nvfp4") or kv.value.endswith("_ds_mla"):
            return
        if "VLLM_MLA_DISABLE" in ctx.invocation.env:
            return
        if uses_mla(ctx) is not True:
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        note = model_note(ctx)
        yield finding(ctx, kv.flags[-1], message, _CHECK.key, related_to=[note] if note else [])
