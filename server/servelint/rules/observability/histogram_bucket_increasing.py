"""SL765: histogram bucket bounds not strictly increasing."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import INCREASING, report


class HistogramBucketIncreasing(Rule):
    """A `--custom-histogram-buckets` list whose bounds do not strictly increase.

    ## What it does
    Reports a family of `--custom-histogram-buckets` with a bound not greater than the one before it (a repeat or a step down).

    ## Why
    vLLM stops: "custom_histogram_buckets['request_latency']: bounds [1.0, 0.5] must be strictly increasing".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --custom-histogram-buckets '{"request_latency": [1.0, 0.5]}'
    ```

    ## Fix
    Sort the bounds and drop repeats.

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

    code = "SL765"
    name = "histogram-bucket-increasing"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (INCREASING,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--custom-histogram-buckets"
    requires = ("--custom-histogram-buckets",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, INCREASING)
