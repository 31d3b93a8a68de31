"""SL336: `--enable-prompt-embeds` on an encoder-decoder model."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.model import model_config
from ...diagnostics import Applicability, Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, removal_fix, vllm_message

_CHECK = VllmCheck("model.prompt_embeds_encoder_decoder", "--enable-prompt-embeds is not supported with encoder-decoder models.",
                   "vllm/config/model.py")


class PromptEmbedsEncoderDecoder(Rule):
    """`--enable-prompt-embeds` for an encoder-decoder model (Whisper, BART...).

    ## What it does
    Reports `--enable-prompt-embeds` when the model's config.json says
    `"is_encoder_decoder": true` (at its top level or in its `text_config`).

    ## Why
    No encoder-decoder model accepts `inputs_embeds`: their decoders embed
    `input_ids` themselves. vLLM stops with "--enable-prompt-embeds is not
    supported with encoder-decoder models."

    ## Example
    ```sh
    vllm serve openai/whisper-large-v3 --enable-prompt-embeds
    ```

    ## Fix
    Drop `--enable-prompt-embeds` (send token ids or text instead).

    ## Fix safety
    The fix removes the flag: unsafe, since clients that send prompt
    embeddings then fail.

    ## Evidence
    A written `--enable-prompt-embeds` and an explicit `"is_encoder_decoder":
    true` in the model's config.json (a config class may default it to true
    without the key; servelint then stays silent). Silent with
    `--hf-overrides`.

    ## vLLM source
    `ModelConfig.validate_model_config_after`.
    """

    code = "SL336"
    name = "prompt-embeds-encoder-decoder"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enable-prompt-embeds"
    requires = ("--enable-prompt-embeds",)
    fixes = frozenset({Applicability.UNSAFE})

    def check(self, ctx: Context) -> Iterable[Finding]:
        v = value_of(ctx.invocation, "enable_prompt_embeds")
        if v.how != "flag" or v.value is not True:
            return
        cfg = model_config(ctx)
        if cfg is None:
            return
        text = cfg.get("text_config")
        if cfg.get("is_encoder_decoder") is not True and not (isinstance(text, dict) and text.get("is_encoder_decoder") is True):
            return
        rel = [r for r in [model_note(ctx)] if r is not None]
        fix = removal_fix(ctx, list(v.flags), "Remove --enable-prompt-embeds")
        yield finding(ctx, v.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key, related_to=rel,
                      fixes=[fix] if fix is not None else None)
