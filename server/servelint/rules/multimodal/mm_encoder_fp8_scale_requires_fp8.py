"""SL338: an FP8 scale path for the encoder without `--mm-encoder-attn-dtype fp8`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import written
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import FP8_SCALE_DESTS, builds_multimodal_config, model_related, optional_str

_CHECK = VllmCheck("multimodal.fp8_scale_requires_fp8", "require 'mm_encoder_attn_dtype' to be 'fp8'.",
                   "vllm/config/multimodal.py")


class MmEncoderFp8ScaleRequiresFp8(Rule):
    """`--mm-encoder-fp8-scale-path` or `--mm-encoder-fp8-scale-save-path` without FP8 encoder attention.

    ## What it does
    Reports `--mm-encoder-fp8-scale-path` or
    `--mm-encoder-fp8-scale-save-path` when `--mm-encoder-attn-dtype` is not
    `fp8`, for a multimodal model.

    ## Why
    The scales are those of FP8 encoder attention; without it they are
    never loaded or saved. vLLM stops with "'mm_encoder_fp8_scale_path' and
    'mm_encoder_fp8_scale_save_path' require 'mm_encoder_attn_dtype' to be
    'fp8'."

    ## Example
    ```sh
    vllm serve Qwen/Qwen2.5-VL-7B-Instruct --mm-encoder-fp8-scale-path scales.json
    ```

    ## Fix
    Add `--mm-encoder-attn-dtype fp8`, or drop the scale path.

    ## Evidence
    The flags as written (or the release's defaults) and the model's
    architecture, a multimodal one in the release's registry.

    ## vLLM source
    `MultiModalConfig._validate_multimodal_config`, after the shared-memory
    cache check.
    """

    code = "SL338"
    name = "mm-encoder-fp8-scale-requires-fp8"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--mm-encoder-fp8-scale-path"
    partners = ("--mm-encoder-fp8-scale-save-path", "--mm-encoder-attn-dtype")
    requires = ("--mm-encoder-fp8-scale-path", "--mm-encoder-fp8-scale-save-path")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        anchor = None
        for dest in FP8_SCALE_DESTS:
            known, value = optional_str(ctx, dest)
            if not known:
                return
            if value is not None and anchor is None:
                anchor = written(inv, dest)[-1]
        if anchor is None:
            return
        known, dtype = optional_str(ctx, "mm_encoder_attn_dtype")
        if not known or dtype == "fp8" or not builds_multimodal_config(ctx):
            return
        rel = related(ctx, written(inv, "mm_encoder_attn_dtype"), "encoder attention dtype set by {flag}")
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key), _CHECK.key, related_to=rel + model_related(ctx))
