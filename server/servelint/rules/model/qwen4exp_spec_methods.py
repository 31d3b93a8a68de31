"""SL352: a speculative method other than MTP or n-gram for a Qwen4Exp model."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, vllm_message
from ._hooks import QWEN4EXP_HOOKS, hook_class, spec_method

_CHECK = VllmCheck("model.qwen4exp_spec_methods",
                   "Qwen4Exp speculative decoding supports only its native MTP ",
                   "vllm/model_executor/models/config.py")

# The methods the hook accepts (0.29.0-0.33.0).
_ALLOWED = frozenset({"mtp", "ngram", "ngram_gpu"})


class Qwen4expSpecMethods(Rule):
    """A speculative method other than `mtp`, `ngram` or `ngram_gpu` for a Qwen4Exp model.

    ## What it does
    Reports `--speculative-config` (or the `--spec-*` shortcuts) when the
    model is a Qwen4Exp model and the method vLLM ends with (given, or
    inferred from the draft model) is not `mtp`, `ngram` or `ngram_gpu`.

    ## Why
    vLLM's config hook for Qwen4Exp stops with "Qwen4Exp speculative
    decoding supports only its native MTP checkpoint and linear n-gram
    proposers".

    ## Example
    ```sh
    vllm serve ./qwen4-exp --speculative-config '{"method": "suffix"}'
    ```

    ## Fix
    Use `{"method": "mtp", "num_speculative_tokens": 1}` (the checkpoint's
    own MTP layers) or an n-gram proposer.

    ## Evidence
    The speculative config as written and the method vLLM's
    `SpeculativeConfig` settles on, and the model's config.json: one
    architecture the release's `MODELS_CONFIG_MAP` maps to a Qwen4Exp hook.
    Silent when the method depends on a draft servelint cannot read, with
    `--hf-overrides` or `--model-impl`. The oracle's environment cannot
    inspect the Qwen4Exp architectures, so this rule has a golden case
    only.

    ## vLLM source
    `Qwen4ExpForConditionalGenerationConfig.verify_and_update_config`.
    """

    code = "SL352"
    name = "qwen4exp-spec-methods"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        got = spec_method(ctx)
        if got is None or got[0] in _ALLOWED:
            return
        if hook_class(ctx) not in QWEN4EXP_HOOKS:
            return
        rel = [r for r in [model_note(ctx)] if r is not None]
        yield finding(ctx, got[1], vllm_message(ctx, _CHECK.key), _CHECK.key, related_to=rel)
