"""SL764: a histogram bucket bound not finite and positive."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import BOUND, report


class HistogramBucketBoundPositive(Rule):
    """A `--custom-histogram-buckets` bound that is 0, negative, infinite or NaN.

    ## What it does
    Reports the first bound of a family of `--custom-histogram-buckets` that is not finite and greater than 0.

    ## Why
    vLLM stops: "custom_histogram_buckets['request_latency']: bound 0.0 must be finite and greater than 0" (the bound as the float pydantic made of it).

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --custom-histogram-buckets '{"request_latency": [0, 0.5, 1.0]}'
    ```

    ## Fix
    Use positive, finite bounds (Prometheus adds the `+Inf` bucket itself).

    ## Evidence
    The JSON of `--custom-histogram-buckets` as written (a `--config` key
    too). Silent when pydantic refuses the object first (a value that is not
    a list of numbers; strings it may convert are not judged), and when an
    earlier check of the validators fails first (the other
    `custom_histogram_buckets` rules, one family after another in the order
    written).

    ## vLLM source
    `ObservabilityConfig._validate_custom_histogram_buckets`, run when `EngineArgs.create_engine_config` builds the config.
    """

    code = "SL764"
    name = "histogram-bucket-bound-positive"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (BOUND,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--custom-histogram-buckets"
    requires = ("--custom-histogram-buckets",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, BOUND)
