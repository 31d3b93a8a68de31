"""SL359: an AliceAI checkpoint whose config.json sets a field its implementation cannot run with."""

from __future__ import annotations

from typing import Iterable

from ...derive.model import model_config
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, model_note, vllm_message, vllm_source
from ._hooks import hook_class

_KDA = VllmCheck("model.aliceai_kda_negative", "AliceAI requires kda_allow_negative_eigenvalues=false",
                 "vllm/model_executor/models/config.py", whole=True)
_ROUTER = VllmCheck("model.aliceai_router_score", "AliceAI requires router_score_function='sigmoid'",
                    "vllm/model_executor/models/config.py", whole=True)
_BIAS = VllmCheck("model.aliceai_router_bias", "AliceAI requires router_bias_correction=true",
                  "vllm/model_executor/models/config.py", whole=True)

# The checks in the order ``verify_and_update_model_config`` makes them:
# the field, and whether its value passes (0.33.0).
_ORDER = (
    (_KDA, "kda_allow_negative_eigenvalues", lambda v: v is False),
    (_ROUTER, "router_score_function", lambda v: v == "sigmoid"),
    (_BIAS, "router_bias_correction", lambda v: v is True),
)


class AliceaiCheckpointFields(Rule):
    """An AliceAI config.json with `kda_allow_negative_eigenvalues`, `router_score_function` or `router_bias_correction` vLLM cannot run.

    ## What it does
    Reports the model when its one architecture is `AliceAIForCausalLM`
    and its config.json sets `kda_allow_negative_eigenvalues` to other than
    `false`, `router_score_function` to other than `"sigmoid"`, or
    `router_bias_correction` to other than `true` (the first of them vLLM
    checks).

    ## Why
    vLLM's AliceAI implementation supports only that variant; its model
    config hook stops with "AliceAI requires
    kda_allow_negative_eigenvalues=false", "AliceAI requires
    router_score_function='sigmoid'" or "AliceAI requires
    router_bias_correction=true".

    ## Example
    ```sh
    vllm serve ./alice-ai-softmax-router
    ```

    ## Fix
    Serve a checkpoint of the supported variant; overriding the field with
    `--hf-overrides` does not change the weights.

    ## Evidence
    The model's config.json: one architecture the release's
    `MODELS_CONFIG_MAP` maps to `AliceAIForCausalLMConfig`, and the fields
    as written. A field the file leaves out is not reported (a remote-code
    config class may give it a default), and neither is a later field
    when an earlier one is left out. Silent with `--hf-overrides` or
    `--model-impl`. The oracle's environment cannot inspect
    `AliceAIForCausalLM`, so this rule has a golden case only.

    ## vLLM source
    `AliceAIForCausalLMConfig.verify_and_update_model_config`, called from
    `ModelConfig.__post_init__`.
    """

    code = "SL359"
    name = "aliceai-checkpoint-fields"
    category = Category.CONFIG
    severity = Severity.ERROR
    vllm_checks = (_KDA, _ROUTER, _BIAS)
    reviewed = ("0.25.0", "0.33.0")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.model is None or hook_class(ctx) != "AliceAIForCausalLMConfig":
            return
        cfg = model_config(ctx)
        if cfg is None:
            return
        for check, field, passes in _ORDER:
            if field not in cfg:
                return
            if passes(cfg[field]):
                continue
            message = vllm_message(ctx, check.key)
            if message is None:
                return
            word = inv.model
            rel = [r for r in [model_note(ctx)] if r is not None]
            yield Finding(word.span, message, related=rel, vllm_message=message, path=word.path or ctx.path,
                          data={"vllm_source": vllm_source(ctx, check.key)})
            return
