"""SL316: a speculative config without `num_speculative_tokens` nor a model to read it from."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import METHODS_WITHOUT_DEFAULT_TOKENS, SPECULATIVE_DESTS, speculative_args
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding
from ._shared import speculative_written


class SpecTokensRequired(Rule):
    """A speculative config without `num_speculative_tokens` nor a model to read it from.

    ## What it does
    Reports a speculative config with neither `num_speculative_tokens` nor
    `model`, for the methods that do not fill the count in themselves: no
    method, `draft_model`, `eagle`, `eagle3`, `dflash`, `ngram`,
    `ngram_gpu`, `mtp` (`suffix` uses its tree depth, `dspark` its block
    size). `--speculative-config '{}'` is one. With a `model`, the count may
    come from the draft's `n_predict`, which servelint does not read.

    ## Why
    vLLM stops with "num_speculative_tokens must be provided with
    speculative model unless the draft model config contains an n_predict
    parameter."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "ngram"}'
    ```

    ## Fix
    Add `"num_speculative_tokens": N` (3-5 is usual for ngram and MTP).

    ## Evidence
    The speculative config as written, as for
    `spec-num-tokens-without-model`.

    ## vLLM source
    `SpeculativeConfig._verify_args`.
    """

    code = "SL316"
    vllm_checks = (VllmCheck("spec_tokens", "speculative model unless the draft model config contains an", "vllm/config/speculative.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "spec-num-tokens-required"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")
    reads = SPECULATIVE_DESTS

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        s = speculative_args(ctx)
        if s is None or s.model is not None or s.tokens is not None:
            return
        method = s.method
        if method is False or method not in METHODS_WITHOUT_DEFAULT_TOKENS:
            return
        message = (
            "num_speculative_tokens must be provided with speculative model unless the draft model config "
            "contains an n_predict parameter."
        )
        yield finding(ctx, s.anchor, message, "spec_tokens")
