"""SL349: `--enable-prefix-caching` for Unlimited-OCR, which vLLM turns off."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_of, value_of, written
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, vllm_message
from ._shared import registry_arch

_CHECK = VllmCheck("model.unlimited_ocr_prefix_caching", "Unlimited-OCR: disabling prefix caching",
                   "vllm/model_executor/models/config.py")

# The backends ``UnlimitedOCRForCausalLMConfig`` accepts without asking
# the device (FLASH_ATTN needs FlashAttention 4; others raise).
_SAFE_BACKENDS = ("TRITON_ATTN", "FLEX_ATTENTION")


class UnlimitedOcrPrefixCaching(Rule):
    """`--enable-prefix-caching` for Unlimited-OCR: vLLM turns it off.

    ## What it does
    Warns about `--enable-prefix-caching` when the model is Unlimited-OCR
    (`UnlimitedOCRForCausalLM`).

    ## Why
    Its R-SWA attention's decode-phase KV is not a pure function of the
    prefix, so vLLM disables prefix caching for this model whatever the
    flag says, and only logs "Unlimited-OCR: disabling prefix caching (R-SWA
    decode KV is not cacheable, and single-turn image-led prompts rarely hit
    the prefix cache)."

    ## Example
    ```sh
    vllm serve baidu/Unlimited-OCR --enable-prefix-caching
    ```

    ## Fix
    Drop `--enable-prefix-caching`: it has no effect for this model.

    ## Evidence
    The written flag and the model's config.json with the one architecture
    `UnlimitedOCRForCausalLM`. Silent when an attention backend is written
    other than `TRITON_ATTN` or `FLEX_ATTENTION` (`FLASH_ATTN` needs
    FlashAttention 4 on the device, and vLLM stops on the others before it
    gets here).

    ## vLLM source
    `UnlimitedOCRForCausalLMConfig.verify_and_update_config`.
    """

    code = "SL349"
    name = "unlimited-ocr-prefix-caching"
    category = Category.INCOMPATIBLE
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enable-prefix-caching"
    requires = ("--enable-prefix-caching",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        v = value_of(inv, "enable_prefix_caching")
        if v.how != "flag" or v.value is not True:
            return
        arch = registry_arch(ctx)
        if arch is None or arch.name != "UnlimitedOCRForCausalLM":
            return
        backends = []
        if written(inv, "attention_backend"):
            b = value_of(inv, "attention_backend")
            if not b.known:
                return
            backends.append(b.value)
        if written(inv, "attention_config"):
            cfg = json_of(inv, "attention_config")
            if not cfg.known:
                return
            if cfg.value.get("backend") is not None:
                backends.append(cfg.value.get("backend"))
        if any(not isinstance(b, str) or b.upper() not in _SAFE_BACKENDS for b in backends):
            return
        rel = [r for r in [model_note(ctx)] if r is not None]
        yield finding(ctx, v.flags[-1], None, _CHECK.key, message=vllm_message(ctx, _CHECK.key), related_to=rel)
