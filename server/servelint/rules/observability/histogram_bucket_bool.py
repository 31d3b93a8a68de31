"""SL761: a histogram bucket bound written as true or false."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import BOOL, report


class HistogramBucketBool(Rule):
    """A `--custom-histogram-buckets` bound that is `true` or `false`.

    ## What it does
    Reports a boolean among the bounds of any family of `--custom-histogram-buckets` (checked before the family names).

    ## Why
    pydantic would read `true` as 1.0; vLLM refuses it first: "custom_histogram_buckets['request_latency']: bound True must be a number, not a boolean".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --custom-histogram-buckets '{"request_latency": [0.1, true]}'
    ```

    ## Fix
    Write the bound as a number.

    ## Evidence
    The JSON of `--custom-histogram-buckets` as written (a `--config` key
    too). Silent when pydantic refuses the object first (a value that is not
    a list of numbers; strings it may convert are not judged), and when an
    earlier check of the validators fails first (the other
    `custom_histogram_buckets` rules, one family after another in the order
    written).

    ## vLLM source
    `ObservabilityConfig._reject_bool_histogram_bounds`, run when `EngineArgs.create_engine_config` builds the config.
    """

    code = "SL761"
    name = "histogram-bucket-bool"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (BOOL,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--custom-histogram-buckets"
    requires = ("--custom-histogram-buckets",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, BOOL)
