"""SL411: FLy verification (`rejection_sample_method: fly`) with a method or token counts it cannot use."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import final_tokens, int_key, key_finding, settled_method, speculative_written

_PATH = "vllm/config/speculative.py"
_HIDDEN = VllmCheck("speculative.fly_extract_hidden_states", "FLy is not compatible with method='extract_hidden_states'", _PATH)
_TWO = VllmCheck("speculative.fly_two_tokens", "FLy requires num_speculative_tokens to be at least 2.", _PATH)
_WINDOW = VllmCheck("speculative.fly_window", "FLy requires fly_window_size to be smaller than num_speculative_tokens.", _PATH)


class FlyVerificationInvalid(Rule):
    """`rejection_sample_method: fly` with `extract_hidden_states`, one token, or too wide a window.

    ## What it does
    Reports a speculative config whose `rejection_sample_method` is `fly`
    when the method is `extract_hidden_states` (which drafts nothing), when
    `num_speculative_tokens` is below 2, or when `fly_window_size` is not
    smaller than `num_speculative_tokens`.

    ## Why
    FLy loosens acceptance over a window of later draft decisions, which
    needs at least two draft tokens and a window inside them. vLLM stops
    with "FLy requires num_speculative_tokens to be at least 2.", "FLy
    requires fly_window_size to be smaller than num_speculative_tokens." or
    "FLy is not compatible with method='extract_hidden_states', ...".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config \\
        '{"method": "ngram", "num_speculative_tokens": 4, "rejection_sample_method": "fly", "fly_window_size": 4}'
    ```

    ## Fix
    Use at least 2 speculative tokens and a `fly_window_size` below their
    count (the default is `min(6, num_speculative_tokens - 1)`), or another
    rejection sampler.

    ## Evidence
    The speculative config as written (the token count as written, or a
    plain draft model's `n_predict`).

    ## vLLM source
    `SpeculativeConfig._verify_args`.
    """

    code = "SL411"
    name = "fly-verification-invalid"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_HIDDEN, _TWO, _WINDOW)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.args.get("rejection_sample_method") != "fly":
            return
        s = p.args
        if settled_method(p) == "extract_hidden_states":
            message = ("FLy is not compatible with method='extract_hidden_states', which does not perform "
                       "speculative decoding.")
            yield key_finding(ctx, s, "rejection_sample_method", message, _HIDDEN.key)
            return
        n = final_tokens(p)
        if n is None:
            return
        if n < 2:
            yield key_finding(ctx, s, "num_speculative_tokens", _TWO.needle, _TWO.key)
            return
        window = int_key(s, "fly_window_size")
        if window is not None and window >= 1 and window >= n:
            yield key_finding(ctx, s, "fly_window_size", _WINDOW.needle, _WINDOW.key,
                          note=f"fly_window_size {window}, num_speculative_tokens {n}")
