"""SL361: a `--video-pruning-method` the model does not implement."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, related, vllm_message
from ._shared import registry_arch

_CHECK = VllmCheck("model.video_pruning_method_unsupported", "Video pruning method '{}' is not supported by {} "
                   "(supported methods: {}).", "vllm/config/model.py", whole=True)


class VideoPruningMethodUnsupported(Rule):
    """Video pruning with a method the model's implementation does not support.

    ## What it does
    With a `--video-pruning-rate` above 0, reports the
    `--video-pruning-method` (written, or its default `evs`) when the
    model's architecture declares the pruning methods it supports and the
    method is not one of them (e.g. `vidcom2` for
    `Qwen2_5_VLForConditionalGeneration`, which supports only `evs`).

    ## Why
    vLLM stops with "Video pruning method 'vidcom2' is not supported by
    Qwen2_5_VLForConditionalGeneration (supported methods: ('evs',))."
    (A model that declares no method is not checked.)

    ## Example
    ```sh
    vllm serve Qwen/Qwen2.5-VL-7B-Instruct --video-pruning-rate 0.5 --video-pruning-method vidcom2
    ```

    ## Fix
    Use one of the methods the message lists, or drop the pruning flags.

    ## Evidence
    The written flags (or the release's defaults) and the model's one
    architecture, looked up in the release's registry (its
    `supported_video_pruning_methods`, generated facts). Silent with
    `--hf-overrides` or `--model-impl`. The oracle's environment cannot
    inspect the multimodal architectures that declare methods (they import
    torchvision), so this rule has a golden case only.

    ## vLLM source
    `ModelConfig.__post_init__`, after it builds the `MultiModalConfig`.
    """

    code = "SL361"
    name = "video-pruning-method-unsupported"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--video-pruning-method"
    partners = ("--video-pruning-rate",)
    requires = ("--video-pruning-rate",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.knowledge.by_dest.get("video_pruning_rate") is None:
            return
        rate = value_of(inv, "video_pruning_rate")
        if not rate.known or rate.value is None or isinstance(rate.value, bool):
            return
        if not isinstance(rate.value, (int, float)) or not 0 < rate.value < 1:
            return
        opt = inv.knowledge.by_dest.get("video_pruning_method")
        if opt is None:
            return
        method = value_of(inv, "video_pruning_method")
        if not method.known or not isinstance(method.value, str):
            return
        if opt.choices and method.value not in opt.choices:
            return  # pydantic refuses it first (SL103)
        arch = registry_arch(ctx)
        if arch is None or arch.supports_multimodal is not True:
            return
        supported = arch.supported_video_pruning_methods
        if not supported or method.value in supported:
            return
        message = vllm_message(ctx, _CHECK.key, method.value, arch.name, repr(tuple(supported)))
        anchor = method.flags[-1] if method.flags else rate.flags[-1] if rate.flags else None
        if anchor is None:
            return
        rel = [] if rate.flags and anchor is rate.flags[-1] else related(ctx, rate.flags, "video pruning turned on by {flag}")
        rel += [r for r in [model_note(ctx)] if r is not None]
        yield finding(ctx, anchor, message, _CHECK.key, related_to=rel)
