"""SL763: an empty histogram bucket list."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import EMPTY, report


class HistogramBucketEmpty(Rule):
    """A `--custom-histogram-buckets` family given no bounds.

    ## What it does
    Reports a family of `--custom-histogram-buckets` whose list is `[]`.

    ## Why
    vLLM stops: "custom_histogram_buckets['request_latency']: bucket list must not be empty".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --custom-histogram-buckets '{"request_latency": []}'
    ```

    ## Fix
    List the bounds, or drop the family to keep its default buckets.

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

    code = "SL763"
    name = "histogram-bucket-empty"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (EMPTY,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--custom-histogram-buckets"
    requires = ("--custom-histogram-buckets",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, EMPTY)
