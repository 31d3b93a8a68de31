"""SL403: `num_speculative_tokens` above the draft's `n_predict` and not a multiple of it."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import draft_loads, key_finding, speculative_written

_CHECK = VllmCheck(
    "speculative.n_predict_divisible", "num_speculative_tokens:{} must be divisible by n_predict={}",
    "vllm/config/speculative.py",
)


class SpecTokensNotMultipleOfNPredict(Rule):
    """`num_speculative_tokens` larger than the draft's `n_predict` but not a multiple of it.

    ## What it does
    Reports a speculative config whose `num_speculative_tokens` exceeds the
    number of tokens the draft predicts per step (`n_predict`: the MTP layer
    count, `num_nextn_predict_layers`, of a DeepSeek-V3-style model, or the
    `n_predict` of a draft model's config.json) and is not a multiple of it.

    ## Why
    vLLM reuses the draft's prediction modules in whole rounds, so the token
    count must divide evenly: it stops with "num_speculative_tokens:3 must be
    divisible by n_predict=2".

    ## Example
    ```sh
    # a checkpoint with "num_nextn_predict_layers": 2
    vllm serve ./my-deepseek-v3 --speculative-config '{"method": "mtp", "num_speculative_tokens": 3}'
    ```

    ## Fix
    Use a multiple of `n_predict` (or `n_predict` itself, the default when
    `num_speculative_tokens` is left out).

    ## Evidence
    The speculative config as written and the draft's config.json (the
    served model's for `mtp` without `model`); silent for MTP models other
    than the DeepSeek family, whose `n_predict` vLLM computes per model.

    ## vLLM source
    `SpeculativeConfig.__post_init__`, after the draft's method is detected.
    """

    code = "SL403"
    name = "spec-tokens-not-multiple-of-n-predict"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.branch != "draft" or not p.n_predict_known or not draft_loads(ctx, p):
            return
        tokens, n = p.args.tokens, p.n_predict
        if not isinstance(tokens, int) or tokens is True or not isinstance(n, int) or n <= 0:
            return
        if tokens <= n or tokens % n == 0:
            return
        message = f"num_speculative_tokens:{tokens} must be divisible by n_predict={n}"
        yield key_finding(ctx, p.args, "num_speculative_tokens", message, _CHECK.key)
