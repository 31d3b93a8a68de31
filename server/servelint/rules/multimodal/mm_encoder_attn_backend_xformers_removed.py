"""SL340: `--mm-encoder-attn-backend XFORMERS`, a backend vLLM removed."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import builds_multimodal_config, model_related, optional_str

_CHECK = VllmCheck("multimodal.encoder_attn_backend_xformers", "Attention backend 'XFORMERS' has been removed",
                   "vllm/config/multimodal.py")


class MmEncoderAttnBackendXformersRemoved(Rule):
    """`--mm-encoder-attn-backend XFORMERS`: the backend no longer exists.

    ## What it does
    Reports `--mm-encoder-attn-backend XFORMERS` (any case) for a
    multimodal model.

    ## Why
    vLLM removed its xFormers attention backend; the multimodal encoder
    cannot use it. vLLM stops with "Attention backend 'XFORMERS' has been
    removed (See PR #29262 for details). Please select a supported attention
    backend."

    ## Example
    ```sh
    vllm serve Qwen/Qwen2.5-VL-7B-Instruct --mm-encoder-attn-backend XFORMERS
    ```

    ## Fix
    Pick a supported backend (`FLASH_ATTN`, `TORCH_SDPA`, ...) or leave the
    flag out: vLLM picks one for the encoder.

    ## Evidence
    The written flag and the model's architecture, a multimodal one in the
    release's registry (for a text-only model vLLM never reads the flag).

    ## vLLM source
    `MultiModalConfig._validate_mm_encoder_attn_backend` (a field
    validator).
    """

    code = "SL340"
    name = "mm-encoder-attn-backend-xformers-removed"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--mm-encoder-attn-backend"
    requires = ("--mm-encoder-attn-backend",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        flags = ctx.invocation.flags_for("mm_encoder_attn_backend")
        if not flags:
            return
        known, value = optional_str(ctx, "mm_encoder_attn_backend")
        if not known or not isinstance(value, str) or value.upper() != "XFORMERS":
            return
        if not builds_multimodal_config(ctx):
            return
        yield finding(ctx, flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key, related_to=model_related(ctx))
