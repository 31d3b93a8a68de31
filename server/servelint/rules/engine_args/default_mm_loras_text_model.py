"""SL585: `--default-mm-loras` for a model that is not multimodal."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("engine_args.default_mm_loras_text_model",
                   "Default modality-specific LoRA(s) were provided for a non multimodal model",
                   "vllm/engine/arg_utils.py")


class DefaultMmLorasTextModel(Rule):
    """`--default-mm-loras` for a text-only model.

    ## What it does
    Reports a non-empty `--default-mm-loras` when the model's architecture
    is not multimodal in the release.

    ## Why
    The option picks a LoRA adapter per input modality (image, audio); a
    text-only model has no such inputs. `EngineArgs.create_engine_config`
    stops with "Default modality-specific LoRA(s) were provided for a non
    multimodal model".

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --default-mm-loras '{"image": "/loras/vision"}'
    ```

    ## Fix
    Remove `--default-mm-loras`, or serve the multimodal model it was meant
    for.

    ## Evidence
    The option as written and the architecture from the model's config.json,
    looked up in the release's model registry; an unknown architecture keeps
    the rule silent.

    ## vLLM source
    `EngineArgs.create_engine_config`, before the LoRA config is built.
    """

    code = "SL585"
    name = "default-mm-loras-text-model"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--default-mm-loras"
    requires = ("--default-mm-loras",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.invocation.last("default_mm_loras") is None:
            return
        loras = value_of(ctx.invocation, "default_mm_loras")
        if loras.how != "flag" or not loras.value:
            return
        arch = ctx.arch
        if arch is None or arch.supports_multimodal is not False:
            return
        model = ctx.model
        if model is not None and getattr(model, "inferred", False):
            return  # an architecture guessed from the name is not evidence enough
        yield finding(ctx, loras.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key, note=f"{ctx.architecture} is not multimodal")
