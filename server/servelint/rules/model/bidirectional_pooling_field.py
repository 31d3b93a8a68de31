"""SL358: a bidirectional Llama embedding checkpoint without a usable `pooling` field."""

from __future__ import annotations

from typing import Iterable

from ...derive.model import model_config
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, model_note, vllm_message, vllm_source
from ._hooks import hook_class

_MISSING = VllmCheck("model.bidirectional_pooling_missing",
                     "This bidirectional model requires a 'pooling' field in its HF config",
                     "vllm/model_executor/models/config.py")
_UNSUPPORTED = VllmCheck("model.bidirectional_pooling_unsupported", "pool_type {} not supported",
                         "vllm/model_executor/models/config.py", whole=True)

# ``pooling_type_map`` of ``LlamaBidirectionalConfig`` (every release 0.25.0-0.33.0).
_POOLINGS = ("avg", "cls", "last")


class BidirectionalPoolingField(Rule):
    """A `LlamaBidirectionalModel` checkpoint whose config.json lacks `pooling`, or names another one.

    ## What it does
    Reports the model when its one architecture is
    `LlamaBidirectionalModel` or `LlamaBidirectionalForSequenceClassification`
    and its config.json has no `pooling` field (from vLLM 0.29.0), or one
    other than `avg`, `cls` and `last`.

    ## Why
    vLLM reads the embedding's pooling from the checkpoint and assumes
    none: it stops with "This bidirectional model requires a 'pooling'
    field in its HF config (one of 'avg', 'cls', 'last'), but none was
    found. ..." or "pool_type 'max' not supported". (Up to 0.28.0 a
    missing field fails with an `AttributeError` instead.)

    ## Example
    ```sh
    vllm serve ./llama-bidirectional-embed
    ```

    ## Fix
    Add the pooling the checkpoint was trained with, e.g.
    `--hf-overrides '{"pooling": "avg"}'`.

    ## Evidence
    The model's config.json: its one architecture, which the release's
    `MODELS_CONFIG_MAP` maps to `LlamaBidirectionalConfig`, and its
    `pooling`. A missing field is reported only for `model_type` `llama`
    (Transformers' `LlamaConfig` has no default for it; a remote-code
    config class might). Silent with `--hf-overrides` or `--model-impl`.

    ## vLLM source
    `LlamaBidirectionalConfig.verify_and_update_model_config`, called
    from `ModelConfig.__post_init__`.
    """

    code = "SL358"
    name = "bidirectional-pooling-field"
    category = Category.CONFIG
    severity = Severity.ERROR
    vllm_checks = (_MISSING, _UNSUPPORTED)
    reviewed = ("0.25.0", "0.33.0")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.model is None or hook_class(ctx) != "LlamaBidirectionalConfig":
            return
        cfg = model_config(ctx)
        if cfg is None:
            return
        pooling = cfg.get("pooling")
        if pooling is None:
            if cfg.get("model_type") != "llama" or not validators.has(_MISSING.key, ctx.version):
                return
            key, message = _MISSING.key, vllm_message(ctx, _MISSING.key)
        elif isinstance(pooling, str) and pooling not in _POOLINGS:
            key, message = _UNSUPPORTED.key, vllm_message(ctx, _UNSUPPORTED.key, repr(pooling))
        else:
            return
        if message is None:
            return
        word = inv.model
        rel = [r for r in [model_note(ctx)] if r is not None]
        yield Finding(word.span, message, related=rel, vllm_message=message, path=word.path or ctx.path,
                      data={"vllm_source": vllm_source(ctx, key)})
