"""SL409: synthetic acceptance rates or length without `rejection_sample_method: synthetic`."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import field_info, speculative_args
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import key_finding, speculative_written

_CHECK = VllmCheck(
    "speculative.synthetic_without_synthetic",
    "synthetic_acceptance_rates / synthetic_acceptance_length are only valid with rejection_sample_method='synthetic'.",
    "vllm/config/speculative.py",
)


class SyntheticAcceptanceWithoutSynthetic(Rule):
    """`synthetic_acceptance_rates` or `synthetic_acceptance_length` with another rejection sampler.

    ## What it does
    Reports a speculative config that sets `synthetic_acceptance_rates` or
    `synthetic_acceptance_length` while `rejection_sample_method` is not
    `synthetic` (its default is `standard`).

    ## Why
    The synthetic acceptance model is only used by the synthetic sampler;
    vLLM refuses it elsewhere: "synthetic_acceptance_rates /
    synthetic_acceptance_length are only valid with
    rejection_sample_method='synthetic'."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config \\
        '{"method": "ngram", "num_speculative_tokens": 3, "synthetic_acceptance_length": 2.5}'
    ```

    ## Fix
    Add `"rejection_sample_method": "synthetic"`, or remove the synthetic keys.

    ## Evidence
    The speculative config as written.

    ## vLLM source
    `SpeculativeConfig._verify_args`.
    """

    code = "SL409"
    name = "synthetic-acceptance-without-synthetic"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        s = speculative_args(ctx)
        if s is None:
            return
        method = s.values.get("rejection_sample_method", "standard")
        if method == "synthetic" or method not in (field_info(ctx.invocation, "rejection_sample_method").get("choices") or ()):
            return  # synthetic, or a method pydantic refuses first
        for key in ("synthetic_acceptance_rates", "synthetic_acceptance_length"):
            if s.get(key) is not None:
                yield key_finding(ctx, s, key, _CHECK.needle, _CHECK.key,
                              note=f"rejection_sample_method is {method!r}")
                return
