"""SL357: an attention backend Unlimited-OCR's R-SWA attention cannot run on."""

from __future__ import annotations

from typing import Iterable

from ...derive.platform import attention_backend_names
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note
from ._hooks import UNKNOWN_BACKEND, attention_backend, hook_class

_CHECK = VllmCheck("model.unlimited_ocr_backend", "Unlimited-OCR: unsupported attention backend {} for R-SWA.",
                   "vllm/model_executor/models/config.py")

# The backends the hook configures (every release 0.25.0-0.33.0).
_SUPPORTED = frozenset({"FLASH_ATTN", "TRITON_ATTN", "FLEX_ATTENTION"})


class UnlimitedOcrBackend(Rule):
    """An attention backend other than `FLASH_ATTN`, `TRITON_ATTN` or `FLEX_ATTENTION` for Unlimited-OCR.

    ## What it does
    Reports `--attention-backend` (or `--attention-config` `backend`) when
    the model is Unlimited-OCR (`UnlimitedOCRForCausalLM`) and the backend
    is one of the release's attention backends other than `FLASH_ATTN`,
    `TRITON_ATTN` and `FLEX_ATTENTION`.

    ## Why
    Unlimited-OCR's R-SWA attention is implemented for those three
    backends only; vLLM's config hook stops with "Unlimited-OCR:
    unsupported attention backend <AttentionBackendEnum.FLASHINFER: ...>
    for R-SWA. Use FLASH_ATTN (FA4), TRITON_ATTN or FLEX_ATTENTION."

    ## Example
    ```sh
    vllm serve baidu/Unlimited-OCR --attention-backend FLASHINFER
    ```

    ## Fix
    Use `TRITON_ATTN` or `FLEX_ATTENTION` (or `FLASH_ATTN` on a GPU with
    FlashAttention 4), or leave the choice to vLLM.

    ## Evidence
    The written backend, looked up in the release's `AttentionBackendEnum`
    (a generated table; a name outside it is refused earlier, and the
    MiniMax-M3 MSA aliases mean automatic selection), and the model's
    config.json with one architecture the release's `MODELS_CONFIG_MAP`
    maps to `UnlimitedOCRForCausalLMConfig`. Silent with `--hf-overrides`
    or `--model-impl`, and when both spellings of the backend are written
    (SL580). vLLM prints the backend enum's repr (its class path), so the
    message is servelint's. The oracle's environment cannot inspect
    `UnlimitedOCRForCausalLM`, so this rule has a golden case only.

    ## vLLM source
    `UnlimitedOCRForCausalLMConfig.verify_and_update_config`.
    """

    code = "SL357"
    name = "unlimited-ocr-backend"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--attention-backend"
    partners = ("--attention-config",)
    requires = ("--attention-backend", "--attention-config")

    def check(self, ctx: Context) -> Iterable[Finding]:
        got = attention_backend(ctx)
        if got is UNKNOWN_BACKEND or got[0] is None or got[0] in _SUPPORTED:
            return
        names = attention_backend_names(ctx.version)
        if names is None or got[0] not in names[0] or got[0] in names[1]:
            return
        if hook_class(ctx) != "UnlimitedOCRForCausalLMConfig":
            return
        rel = [r for r in [model_note(ctx)] if r is not None]
        yield finding(ctx, got[1], None, _CHECK.key, related_to=rel,
                      message=f"Unlimited-OCR: unsupported attention backend {got[0]} for R-SWA. "
                              "Use FLASH_ATTN (FA4), TRITON_ATTN or FLEX_ATTENTION.")
