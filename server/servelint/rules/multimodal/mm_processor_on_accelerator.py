"""SL347: the multimodal processor on the GPU of an instance that also runs the model."""

from __future__ import annotations

import re
from typing import Iterable

from ...derive.flags import json_of, written
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import builds_multimodal_config, model_related

_CHECK = VllmCheck("multimodal.processor_on_accelerator", "Cannot run the multi-modal processor on {}",
                   "vllm/config/multimodal.py")

# A ``torch.device`` string of the CUDA device type: "cuda" or "cuda:N".
# torch refuses surrounding spaces and an index with a leading zero
# ("Invalid device string", torch 2.13): vLLM then stops at SL919's check.
_CUDA = re.compile(r"cuda(?::(?:0|[1-9]\d*))?")


class MmProcessorOnAccelerator(Rule):
    """`--mm-processor-kwargs` `"device": "cuda"` on an instance that also runs the language model.

    ## What it does
    Reports a `"device"` of `--mm-processor-kwargs` naming the CUDA device
    (`"cuda"`, `"cuda:0"`, ...) on a CUDA target, for a multimodal model,
    when the launch is not an encode-only instance of an
    encode/prefill/decode deployment (it writes no `--ec-transfer-config`).

    ## Why
    The processor runs in the API-server process: on the GPU its kernels
    contend with the model's forward pass and its memory is outside what
    the engine profiled for the KV cache. vLLM stops with "Cannot run the
    multi-modal processor on 'cuda': this instance also runs the language
    model. ..."

    ## Example
    ```sh
    vllm serve Qwen/Qwen2.5-VL-7B-Instruct --mm-processor-kwargs '{"device": "cuda"}'
    ```

    ## Fix
    Drop `"device"` from `--mm-processor-kwargs` (or use
    `--mm-processor-device cpu`); GPU preprocessing is for the encode-only
    instance of a disaggregated deployment.

    ## Evidence
    The written `--mm-processor-kwargs`, the target platform (CUDA; the
    check compares with the platform's device type) and the model's
    architecture, a multimodal one in the release's registry. Silent when
    `--ec-transfer-config` is written (the instance may be encode-only).

    ## vLLM source
    `MultiModalConfig.validate_mm_processor_device`, called by
    `VllmConfig._validate_mm_processor_device`.
    """

    code = "SL347"
    name = "mm-processor-on-accelerator"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--mm-processor-kwargs"
    requires = ("--mm-processor-kwargs",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target != "cuda":
            return
        inv = ctx.invocation
        kwargs = json_of(inv, "mm_processor_kwargs")
        if kwargs.how != "flag" or not kwargs.known:
            return
        device = kwargs.value.get("device")
        if not isinstance(device, str) or not _CUDA.fullmatch(device):
            return
        if written(inv, "ec_transfer_config") or not builds_multimodal_config(ctx):
            return
        yield finding(ctx, kwargs.flags[-1], vllm_message(ctx, _CHECK.key, "'cuda'"), _CHECK.key,
                      related_to=model_related(ctx))
