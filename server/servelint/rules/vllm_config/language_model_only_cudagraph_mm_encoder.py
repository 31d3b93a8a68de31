"""SL667: ``--language-model-only`` with ``cudagraph_mm_encoder`` on."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_of, value_of
from ...derive.model import arch_facts
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("vllm.language_model_only_mm_encoder", "--language-model-only is incompatible with",
                   "vllm/config/vllm.py")


class LanguageModelOnlyCudagraphMmEncoder(Rule):
    """`--language-model-only` with `"cudagraph_mm_encoder": true` in `--compilation-config`.

    ## What it does
    Reports a `--compilation-config` (`-cc`) that turns
    `cudagraph_mm_encoder` on for a multimodal model served with
    `--language-model-only`.

    ## Why
    Language-model-only mode disables every multimodal input, so the
    encoder whose CUDA graphs would be captured never runs. vLLM stops
    while building its config: "--language-model-only is incompatible
    with cudagraph_mm_encoder=True, since it disables all multimodal
    inputs and the multimodal encoder is never run. Please disable one of
    them."

    ## Example
    ```sh
    vllm serve Qwen/Qwen2.5-VL-7B-Instruct --language-model-only -cc '{"cudagraph_mm_encoder": true}'
    ```

    ## Fix
    Remove `cudagraph_mm_encoder`, or serve the multimodal inputs (drop
    `--language-model-only`).

    ## Evidence
    The flags as written and the architecture's registry facts
    (`supports_multimodal`: a text-only model has no multimodal config, and
    vLLM does not check).

    ## vLLM source
    `VllmConfig.__post_init__` (0.29.0+). Verified from vLLM's source
    only: the vllm-oracle's environment cannot inspect the multimodal
    architectures at hand.
    """

    code = "SL667"
    name = "language-model-only-cudagraph-mm-encoder"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.29.0", "0.33.0")
    anchor = "--compilation-config"
    partners = ("--language-model-only",)
    requires = ("--language-model-only",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        lmo = value_of(inv, "language_model_only")
        if lmo.how != "flag" or lmo.value is not True or not lmo.flags:
            return
        cc = json_of(inv, "compilation_config")
        if cc.how != "flag" or not cc.flags or cc.value.get("cudagraph_mm_encoder") is not True:
            return
        arch = arch_facts(ctx)
        if arch is None or arch.supports_multimodal is not True:
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        rel = related(ctx, lmo.flags[-1:], "multimodal inputs disabled by {flag}")
        yield finding(ctx, cc.flags[-1], message, _CHECK.key, related_to=rel)
