"""SL355: the FlashInfer attention backend for DiffusionGemma."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, vllm_message
from ._hooks import UNKNOWN_BACKEND, attention_backend, hook_class

_CHECK = VllmCheck("model.diffusion_gemma_no_flashinfer",
                   "FlashInfer does not support DiffusionGemma's mixed causal/bidirectional attention.",
                   "vllm/model_executor/models/config.py")


class DiffusionGemmaNoFlashinfer(Rule):
    """The `FLASHINFER` attention backend for a DiffusionGemma model.

    ## What it does
    Reports `--attention-backend FLASHINFER` (or `--attention-config`
    `backend` `FLASHINFER`) when the model is
    `DiffusionGemmaForBlockDiffusion`.

    ## Why
    DiffusionGemma mixes causal and bidirectional attention in one batch,
    which FlashInfer cannot run; vLLM's config hook stops with "FlashInfer
    does not support DiffusionGemma's mixed causal/bidirectional attention.
    Use --attention-backend FLASH_ATTN or TRITON_ATTN instead."

    ## Example
    ```sh
    vllm serve ./diffusion-gemma --attention-backend FLASHINFER
    ```

    ## Fix
    Use `--attention-backend FLASH_ATTN` or `TRITON_ATTN`, or leave the
    choice to vLLM.

    ## Evidence
    The written backend and the model's config.json: one architecture the
    release's `MODELS_CONFIG_MAP` maps to
    `DiffusionGemmaModelForBlockDiffusionConfig`. Silent with
    `--hf-overrides` or `--model-impl`, and when both spellings of the
    backend are written (SL580). The oracle's environment cannot inspect
    `DiffusionGemmaForBlockDiffusion`, so this rule has a golden case only.

    ## vLLM source
    `DiffusionGemmaModelForBlockDiffusionConfig.verify_and_update_config`.
    """

    code = "SL355"
    name = "diffusion-gemma-no-flashinfer"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--attention-backend"
    partners = ("--attention-config",)
    requires = ("--attention-backend", "--attention-config")

    def check(self, ctx: Context) -> Iterable[Finding]:
        got = attention_backend(ctx)
        if got is UNKNOWN_BACKEND or got[0] != "FLASHINFER":
            return
        if hook_class(ctx) != "DiffusionGemmaModelForBlockDiffusionConfig":
            return
        rel = [r for r in [model_note(ctx)] if r is not None]
        yield finding(ctx, got[1], vllm_message(ctx, _CHECK.key), _CHECK.key, related_to=rel)
