"""SL408: synthetic rejection sampling with acceptance rates or length vLLM refuses."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer, speculative_args
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import final_tokens, key_finding, number_key, speculative_written

_PATH = "vllm/config/speculative.py"
_EXACTLY_ONE = VllmCheck("speculative.synthetic_exactly_one", "requires exactly one of synthetic_acceptance_rates or synthetic_acceptance_length.", _PATH)
_LENGTH = VllmCheck("speculative.synthetic_rates_length", "synthetic_acceptance_rates must have length {}, got {}.", _PATH)
_RANGE = VllmCheck("speculative.synthetic_rates_range", "synthetic_acceptance_rates entries must be in [0, 1], got {}.", _PATH)
_ORDER = VllmCheck("speculative.synthetic_rates_order", "synthetic_acceptance_rates must be non-increasing, got {}.", _PATH)
_MEAN = VllmCheck("speculative.synthetic_length_range", "synthetic_acceptance_length must be in [1, {}], got {}.", _PATH)


def _rates(value) -> list[float] | None:
    """The rates as pydantic makes them (``list[float]``), or None."""
    if not isinstance(value, list):
        return None
    if not all(isinstance(r, (int, float)) and not isinstance(r, bool) for r in value):
        return None
    return [float(r) for r in value]


class SyntheticAcceptanceInvalid(Rule):
    """`rejection_sample_method: synthetic` with rates or a length vLLM cannot use.

    ## What it does
    Checks the synthetic acceptance model of a speculative config whose
    `rejection_sample_method` is `synthetic`: exactly one of
    `synthetic_acceptance_rates` and `synthetic_acceptance_length` must be
    given; the rates one per speculative token, each in [0, 1], never
    increasing; the length in [1, `num_speculative_tokens` + 1].

    ## Why
    Synthetic rejection sampling accepts draft tokens with fixed
    probabilities, for benchmarking. vLLM stops while checking the config,
    e.g. "synthetic_acceptance_rates must have length 3, got [0.9, 1.0]."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "ngram", "num_speculative_tokens": 3,
        "rejection_sample_method": "synthetic", "synthetic_acceptance_rates": [0.9, 0.7]}'
    ```

    ## Fix
    Give one rate per speculative token, non-increasing, each between 0 and
    1 (`[0.9, 0.7, 0.5]`), or only `synthetic_acceptance_length`.

    ## Evidence
    The speculative config as written; the token count as written (or a
    plain draft model's `n_predict`).

    ## vLLM source
    `SpeculativeConfig._resolve_synthetic_acceptance_rates`, called by
    `_verify_args`.
    """

    code = "SL408"
    name = "synthetic-acceptance-invalid"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_EXACTLY_ONE, _LENGTH, _RANGE, _ORDER, _MEAN)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        s = speculative_args(ctx)
        if s is None or s.get("rejection_sample_method") != "synthetic":
            return
        raw_rates, raw_length = s.get("synthetic_acceptance_rates"), s.get("synthetic_acceptance_length")
        rates = _rates(raw_rates)
        length = number_key(s, "synthetic_acceptance_length")
        if (raw_rates is not None and rates is None) or (raw_length is not None and length is None):
            return  # pydantic refuses the type first
        if (rates is None) == (length is None):
            message = ("rejection_sample_method='synthetic' requires exactly one of synthetic_acceptance_rates "
                       "or synthetic_acceptance_length.")
            yield key_finding(ctx, s, "rejection_sample_method", message, _EXACTLY_ONE.key)
            return
        n = final_tokens(proposer(ctx))
        if n is None:
            return
        if rates is not None:
            if len(rates) != n:
                yield key_finding(ctx, s, "synthetic_acceptance_rates",
                              f"synthetic_acceptance_rates must have length {n}, got {rates}.", _LENGTH.key,
                              note=f"num_speculative_tokens is {n}")
                return
            if not all(0.0 <= r <= 1.0 for r in rates):
                yield key_finding(ctx, s, "synthetic_acceptance_rates",
                              f"synthetic_acceptance_rates entries must be in [0, 1], got {rates}.", _RANGE.key)
            if any(rates[i] > rates[i - 1] for i in range(1, n)):
                yield key_finding(ctx, s, "synthetic_acceptance_rates",
                              f"synthetic_acceptance_rates must be non-increasing, got {rates}.", _ORDER.key)
            return
        if not 1.0 <= length <= float(n + 1):
            yield key_finding(ctx, s, "synthetic_acceptance_length",
                          f"synthetic_acceptance_length must be in [1, {n + 1}], got {float(length)}.", _MEAN.key,
                          note=f"num_speculative_tokens is {n}")
