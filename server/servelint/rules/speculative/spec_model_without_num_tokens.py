"""SL404: a draft model that gives no `num_speculative_tokens` when the config sets none."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import draft_loads, key_finding, speculative_written

_NO_TOKENS = VllmCheck(
    "speculative.model_without_tokens", "A speculative model was provided, but `num_speculative_tokens` was not provided",
    "vllm/config/speculative.py",
)
_ZERO = VllmCheck(
    "speculative.tokens_positive", "Expected num_speculative_tokens to be greater than zero ({}).",
    "vllm/config/speculative.py",
)


class SpecModelWithoutNumTokens(Rule):
    """A draft `model` without `num_speculative_tokens`, whose config.json does not give one either.

    ## What it does
    Reports a speculative config that names a draft `model` but no
    `num_speculative_tokens`, when the draft's config.json has no usable
    `n_predict` to take it from: a plain draft model (method `draft_model`)
    without `n_predict`, or an MTP checkpoint of the DeepSeek family without
    `num_nextn_predict_layers`; and one whose `n_predict` is 0.

    ## Why
    vLLM defaults `num_speculative_tokens` to the draft's `n_predict`; with
    none it stops with "A speculative model was provided, but
    `num_speculative_tokens` was not provided", and with 0 with "Expected
    num_speculative_tokens to be greater than zero (0)."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config '{"model": "Qwen/Qwen3-0.6B"}'
    ```

    ## Fix
    Add `"num_speculative_tokens": N` (3-5 is usual for a small draft model).

    ## Evidence
    The speculative config as written and the draft's config.json (a local
    directory or the Hugging Face cache). Silent for EAGLE, DFlash and DSpark
    drafts and for MTP models outside the DeepSeek family, whose token count
    vLLM derives otherwise.

    ## vLLM source
    `SpeculativeConfig.__post_init__` (the draft-model branch) and
    `SpeculativeConfig._verify_args`.
    """

    code = "SL404"
    name = "spec-model-without-num-tokens"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_NO_TOKENS, _ZERO)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.branch != "draft" or p.args.tokens is not None or not p.n_predict_known:
            return
        if p.method == "mtp" or not draft_loads(ctx, p):
            return  # an MTP draft without a token count fails on a comparison first (SL405)
        if p.n_predict is None:
            message = "A speculative model was provided, but `num_speculative_tokens` was not provided"
            yield key_finding(ctx, p.args, "model", message, _NO_TOKENS.key, note="its config.json has no n_predict")
        elif p.n_predict <= 0:
            message = f"Expected num_speculative_tokens to be greater than zero ({p.n_predict})."
            yield key_finding(ctx, p.args, "model", message, _ZERO.key,
                          note=f"taken from the draft's n_predict, {p.n_predict}")
