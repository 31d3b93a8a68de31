"""SL360: a ColQwen3.5 checkpoint without one valid `retrieval_attention_contract`."""

from __future__ import annotations

from typing import Iterable

from ...derive.model import hf_text_config, model_config
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, model_note, vllm_message, vllm_source
from ._hooks import hook_class

_MISSING = VllmCheck("model.colqwen35_contract_missing", "ColQwen3.5 checkpoints must declare "
                     "retrieval_attention_contract as 'causal' or 'bidirectional'",
                     "vllm/model_executor/models/config.py", whole=True)
_INVALID = VllmCheck("model.colqwen35_contract_invalid", "unsupported or conflicting ColQwen3.5 "
                     "retrieval_attention_contract declarations: {}",
                     "vllm/model_executor/models/config.py", whole=True)

_SUPPORTED = ("causal", "bidirectional")
# Transformers config classes with no default for the field: a config.json
# of these types that leaves it out declares none.
_NO_DEFAULT_TYPES = frozenset({"qwen3_5", "qwen3_5_moe", "qwen3_5_text", "qwen3_5_moe_text"})
_REPRABLE = (str, int, float, bool)


class Colqwen35AttentionContract(Rule):
    """A `ColQwen3_5` checkpoint that declares no `retrieval_attention_contract`, or an invalid one.

    ## What it does
    Reports the model when its one architecture is `ColQwen3_5` and its
    config.json (the top level and its text config) declares no
    `retrieval_attention_contract`, or declares one other than `causal` or
    `bidirectional`, or two that differ.

    ## Why
    vLLM builds the retrieval encoder's attention from that declaration and
    assumes none: it stops with "ColQwen3.5 checkpoints must declare
    retrieval_attention_contract as 'causal' or 'bidirectional'" or
    "unsupported or conflicting ColQwen3.5 retrieval_attention_contract
    declarations: [...]".

    ## Example
    ```sh
    vllm serve ./colqwen3.5-without-contract
    ```

    ## Fix
    Add the contract the checkpoint was trained with, e.g.
    `--hf-overrides '{"retrieval_attention_contract": "bidirectional"}'`.

    ## Evidence
    The model's config.json: one architecture the release's
    `MODELS_CONFIG_MAP` maps to `ColQwen3_5Config` and the declarations as
    written. A missing declaration is reported only for the Qwen3.5 model
    types (Transformers' classes have no default for it; a remote-code one
    might). Silent with `--hf-overrides` or `--model-impl`. The oracle's
    environment cannot inspect `ColQwen3_5` (a multimodal model; no
    torchvision), so this rule has a golden case only.

    ## vLLM source
    `ColQwen3_5Config.verify_and_update_model_config`, called from
    `ModelConfig.__post_init__`.
    """

    code = "SL360"
    name = "colqwen35-attention-contract"
    category = Category.CONFIG
    severity = Severity.ERROR
    vllm_checks = (_MISSING, _INVALID)
    reviewed = ("0.25.0", "0.33.0")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.model is None or hook_class(ctx) != "ColQwen3_5Config":
            return
        cfg = model_config(ctx)
        if cfg is None:
            return
        text = hf_text_config(cfg)
        if text is None:
            return
        configs = [cfg] if text is cfg else [cfg, text]
        declared = [c.get("retrieval_attention_contract") for c in configs]
        declared = [d for d in declared if d is not None]
        if not declared:
            if any(c.get("model_type") not in _NO_DEFAULT_TYPES for c in configs):
                return
            key, message, shown = _MISSING.key, vllm_message(ctx, _MISSING.key), None
        elif (any(not isinstance(d, str) or d not in _SUPPORTED for d in declared)
              or len(set(map(repr, declared))) != 1):
            key = _INVALID.key
            if all(isinstance(d, _REPRABLE) for d in declared):
                message, shown = vllm_message(ctx, key, repr(declared)), None
            else:
                message = None
                shown = ("unsupported or conflicting ColQwen3.5 retrieval_attention_contract declarations "
                         "(it must be 'causal' or 'bidirectional', the same wherever it is declared)")
        else:
            return
        if message is None and shown is None:
            return
        word = inv.model
        rel = [r for r in [model_note(ctx)] if r is not None]
        yield Finding(word.span, message or shown, related=rel, vllm_message=message, path=word.path or ctx.path,
                      data={"vllm_source": vllm_source(ctx, key)})
