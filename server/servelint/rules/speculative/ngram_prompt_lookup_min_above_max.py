"""SL401: ngram `prompt_lookup_min` above `prompt_lookup_max`."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import int_key, key_finding, speculative_written

_CHECK = VllmCheck("speculative.prompt_lookup_min_max", "must be <= prompt_lookup_max={}", "vllm/config/speculative.py")


class NgramPromptLookupMinAboveMax(Rule):
    """N-gram speculation whose `prompt_lookup_min` is larger than `prompt_lookup_max`.

    ## What it does
    Reports a speculative config with method `ngram` or `ngram_gpu` (or
    `"model": "ngram"`) that sets both `prompt_lookup_min` and
    `prompt_lookup_max`, the minimum above the maximum. When only one of
    them is set vLLM uses it for both.

    ## Why
    The proposer looks for n-grams of `prompt_lookup_min` to
    `prompt_lookup_max` tokens in the prompt; an empty range is refused
    while vLLM builds its config: "prompt_lookup_min=5 must be <=
    prompt_lookup_max=2".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config \\
        '{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_min": 5, "prompt_lookup_max": 2}'
    ```

    ## Fix
    Swap the two values, or set only `prompt_lookup_max`.

    ## Evidence
    The speculative config as written. Values that are not integers of at
    least 1 are refused earlier (invalid-value).

    ## vLLM source
    `SpeculativeConfig.__post_init__`, after the method is inferred and the
    n-gram window defaults (5 and 5) are filled in.
    """

    code = "SL401"
    name = "ngram-prompt-lookup-min-above-max"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.branch != "ngram":
            return
        low, high = int_key(p.args, "prompt_lookup_min"), int_key(p.args, "prompt_lookup_max")
        if low is None or high is None or low < 1 or high < 1 or low <= high:
            return
        message = f"prompt_lookup_min={low} must be <= prompt_lookup_max={high}"
        yield key_finding(ctx, p.args, "prompt_lookup_min", message, _CHECK.key)
