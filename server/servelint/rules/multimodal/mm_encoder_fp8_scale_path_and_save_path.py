"""SL339: both `--mm-encoder-fp8-scale-path` and `--mm-encoder-fp8-scale-save-path`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import written
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import FP8_SCALE_DESTS, builds_multimodal_config, model_related, optional_str

_CHECK = VllmCheck("multimodal.fp8_scale_path_vs_save_path", "(saving requires dynamic scaling).",
                   "vllm/config/multimodal.py")


class MmEncoderFp8ScalePathAndSavePath(Rule):
    """`--mm-encoder-fp8-scale-save-path` together with `--mm-encoder-fp8-scale-path`.

    ## What it does
    Reports a launch that gives both an FP8 scale file to load
    (`--mm-encoder-fp8-scale-path`) and one to save calibrated scales to
    (`--mm-encoder-fp8-scale-save-path`), for a multimodal model.

    ## Why
    Saving calibrates the scales at run time (dynamic scaling); loading
    fixes them from the file, so there is nothing to calibrate. vLLM stops
    with "'mm_encoder_fp8_scale_save_path' cannot be used with
    'mm_encoder_fp8_scale_path' (saving requires dynamic scaling)."

    ## Example
    ```sh
    vllm serve Qwen/Qwen2.5-VL-7B-Instruct --mm-encoder-attn-dtype fp8 \\
        --mm-encoder-fp8-scale-path scales.json --mm-encoder-fp8-scale-save-path new-scales.json
    ```

    ## Fix
    Keep one: the scale file to load, or (for a calibration run) the path
    to save to.

    ## Evidence
    The two paths as written and the model's architecture, a multimodal
    one in the release's registry. Without `--mm-encoder-attn-dtype fp8`
    vLLM reports `mm-encoder-fp8-scale-requires-fp8` first.

    ## vLLM source
    `MultiModalConfig._validate_multimodal_config`, after the FP8 dtype
    check.
    """

    code = "SL339"
    name = "mm-encoder-fp8-scale-path-and-save-path"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--mm-encoder-fp8-scale-save-path"
    partners = ("--mm-encoder-fp8-scale-path",)
    requires = ("--mm-encoder-fp8-scale-path", "--mm-encoder-fp8-scale-save-path")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        for dest in FP8_SCALE_DESTS:
            known, value = optional_str(ctx, dest)
            if not known or value is None:
                return
        known, dtype = optional_str(ctx, "mm_encoder_attn_dtype")
        if not known or dtype != "fp8" or not builds_multimodal_config(ctx):
            return  # without fp8, vLLM stops at SL338 first
        load, save = (written(inv, d)[-1] for d in FP8_SCALE_DESTS)
        rel = related(ctx, [load], "scale file to load set by {flag}")
        yield finding(ctx, save, vllm_message(ctx, _CHECK.key), _CHECK.key, related_to=rel + model_related(ctx))
