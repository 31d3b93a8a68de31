"""SL354: a speculative method needing auxiliary hidden states for an AliceAI model."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, vllm_message
from ._hooks import hook_class, spec_method

_CHECK = VllmCheck("model.aliceai_spec_methods",
                   "AliceAI does not support speculative method {} because it requires auxiliary hidden states",
                   "vllm/model_executor/models/config.py", whole=True)

# The methods the hook refuses (0.33.0).
_REFUSED = frozenset({"dflash", "dspark", "eagle3", "extract_hidden_states"})


class AliceaiSpecMethods(Rule):
    """`dflash`, `dspark`, `eagle3` or `extract_hidden_states` speculation for an AliceAI model.

    ## What it does
    Reports `--speculative-config` (or the `--spec-*` shortcuts) when the
    model is `AliceAIForCausalLM` and the method vLLM ends with (given, or
    detected from the draft's name) is `dflash`, `dspark`, `eagle3` or
    `extract_hidden_states`.

    ## Why
    These proposers read auxiliary hidden states of the target, which the
    AliceAI implementation does not expose; vLLM's config hook stops with
    "AliceAI does not support speculative method 'eagle3' because it
    requires auxiliary hidden states".

    ## Example
    ```sh
    vllm serve ./alice-ai --speculative-config '{"method": "extract_hidden_states", "num_speculative_tokens": 1}'
    ```

    ## Fix
    Use another proposer (`ngram`, `eagle`, a draft model).

    ## Evidence
    The speculative config as written and the method vLLM's
    `SpeculativeConfig` settles on, and the model's config.json: one
    architecture the release's `MODELS_CONFIG_MAP` maps to
    `AliceAIForCausalLMConfig`. Silent when the method depends on a draft
    servelint cannot read, with `--hf-overrides` or `--model-impl`. The
    oracle's environment cannot inspect `AliceAIForCausalLM`, so this rule
    has a golden case only.

    ## vLLM source
    `AliceAIForCausalLMConfig.verify_and_update_config`.
    """

    code = "SL354"
    name = "aliceai-spec-methods"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        got = spec_method(ctx)
        if got is None or got[0] not in _REFUSED:
            return
        if hook_class(ctx) != "AliceAIForCausalLMConfig":
            return
        rel = [r for r in [model_note(ctx)] if r is not None]
        yield finding(ctx, got[1], vllm_message(ctx, _CHECK.key, repr(got[0])), _CHECK.key, related_to=rel)
