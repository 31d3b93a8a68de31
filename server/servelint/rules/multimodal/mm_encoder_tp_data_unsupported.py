"""SL344: `--mm-encoder-tp-mode data` for a model whose encoder cannot run data-parallel."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.model import arch_facts
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import builds_multimodal_config, model_related

_CHECK = VllmCheck("multimodal.encoder_tp_data_fallback", "This model does not support `--mm-encoder-tp-mode data`.",
                   "vllm/config/model.py")


class MmEncoderTpDataUnsupported(Rule):
    """`--mm-encoder-tp-mode data` that vLLM overrides to `weights` for this model.

    ## What it does
    Warns about `--mm-encoder-tp-mode data` when the model's architecture
    does not support a data-parallel multimodal encoder
    (`supports_multimodal_encoder_tp_data` in the release's registry).

    ## Why
    vLLM does not stop: it logs "This model does not support
    `--mm-encoder-tp-mode data`. Falling back to `--mm-encoder-tp-mode
    weights`." and shards the encoder's weights across the TP ranks as
    usual, so the flag has no effect.

    ## Example
    ```sh
    vllm serve openai/whisper-large-v3 -tp 2 --mm-encoder-tp-mode data
    ```

    ## Fix
    Drop `--mm-encoder-tp-mode data` (or write `weights`, the default).

    ## Evidence
    The written flag and the model's architecture in the release's
    registry (a multimodal one: vLLM reads the flag only for those).

    ## vLLM source
    `ModelConfig.__post_init__`, where it builds the multimodal config.
    """

    code = "SL344"
    name = "mm-encoder-tp-data-unsupported"
    category = Category.INCOMPATIBLE
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--mm-encoder-tp-mode"
    requires = ("--mm-encoder-tp-mode",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        mode = value_of(ctx.invocation, "mm_encoder_tp_mode")
        if mode.how != "flag" or mode.value != "data" or not builds_multimodal_config(ctx):
            return
        arch = arch_facts(ctx)
        if arch is None or arch.supports_multimodal_encoder_tp_data is not False:
            return
        yield finding(ctx, mode.flags[-1], None, _CHECK.key, message=vllm_message(ctx, _CHECK.key),
                      related_to=model_related(ctx))
