"""SL418: `draft_lm_head_quantization` with a draft whose lm_head runs in another dtype."""

from __future__ import annotations

from typing import Iterable

from ...derive.model import DTYPE_NAMES, dtype
from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import draft_site, key_finding, settled_method, speculative_written

_CHECK = VllmCheck(
    "speculative.draft_lm_head_quantization_head_dtype",
    "draft_lm_head_quantization needs the lm_head to run in the model dtype, got head_dtype={}.",
    "vllm/config/speculative.py",
)
# The methods SL407 lets through (``_verify_args``): the drafter shares the target's lm_head.
_SHARING = ("eagle", "eagle3", "mtp")
# Head dtypes every CUDA GPU vLLM runs on supports (``CudaPlatform.supported_dtypes``):
# an unsupported one (bfloat16 below compute capability 8.0) falls back to the model dtype.
_ALWAYS_SUPPORTED = ("float32", "float16")


class DraftLmHeadQuantizationHeadDtype(Rule):
    """`draft_lm_head_quantization` with a draft whose lm_head runs in another dtype than the model.

    ## What it does
    Reports `draft_lm_head_quantization` in a speculative config for an
    EAGLE, EAGLE-3 or MTP drafter whose config.json sets `head_dtype` (for
    MTP without a `model`, the served model's own config.json) to a dtype
    other than the one the model runs in: `float32` on a `bfloat16` or
    `float16` model, `float16` on a `bfloat16` or `float32` one.

    ## Why
    The quantized lm_head replaces the drafter's copy of the target's
    lm_head in the model dtype; a head that runs in fp32 (`head_dtype`,
    for RL training-inference consistency) cannot be swapped for it. vLLM
    stops with "draft_lm_head_quantization needs the lm_head to run in the
    model dtype, got head_dtype=torch.float32."

    ## Example
    ```sh
    # the checkpoint's config.json has "head_dtype": "float32"
    vllm serve ./deepseek-v3-fp32-head --speculative-config \\
        '{"method": "mtp", "num_speculative_tokens": 1, "draft_lm_head_quantization": "fp8"}'
    ```

    ## Fix
    Remove `draft_lm_head_quantization`, or run the head in the model
    dtype (`"head_dtype": "model"`).

    ## Evidence
    The speculative config as written, the draft's config.json (local
    directory or the Hugging Face cache; for MTP without a `model`, the
    served model's own, silent when `--hf-overrides` is written), and the
    model dtype as vLLM resolves it (`--dtype`, else the checkpoint's
    dtype on a CUDA GPU). Silent for a `bfloat16` head, which a GPU
    without bfloat16 replaces by the model dtype, and when the method or
    the dtype is not known.

    ## vLLM source
    `SpeculativeConfig._verify_args`; `ModelConfig.head_dtype`
    (vllm/config/model.py), which reads `head_dtype` from the draft's
    config.
    """

    code = "SL418"
    name = "draft-lm-head-quantization-head-dtype"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.args.get("draft_lm_head_quantization") is None:
            return
        method = settled_method(p)
        if method not in _SHARING or p.branch != "draft" or p.draft is None:
            return
        if method == "mtp" and p.draft.get("model_type") == "gemma4_mtp":
            return  # SL407: Gemma-4 MTP has no lm_head to share
        head = p.draft.get("head_dtype")
        if not isinstance(head, str) or DTYPE_NAMES.get(head.lower()) not in _ALWAYS_SUPPORTED:
            return
        head = DTYPE_NAMES[head.lower()]
        model_dtype, exact, how = dtype(ctx)
        if model_dtype is None or model_dtype == head:
            return
        if not exact and head == "float16":
            return  # a bfloat16 checkpoint runs in float16 on GPUs without bfloat16
        message = (f"draft_lm_head_quantization needs the lm_head to run in the model dtype, got "
                   f"head_dtype=torch.{head}.")
        _, where = draft_site(p)
        yield key_finding(ctx, p.args, "draft_lm_head_quantization", message, _CHECK.key,
                          note=f"{where} config.json sets head_dtype {head}, the model dtype is {how}")
