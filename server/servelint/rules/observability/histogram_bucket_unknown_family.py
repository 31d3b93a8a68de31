"""SL762: a histogram bucket family this release does not have."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import UNKNOWN_FAMILY, report


class HistogramBucketUnknownFamily(Rule):
    """A `--custom-histogram-buckets` key that is not a bucket family.

    ## What it does
    Reports a key of `--custom-histogram-buckets` outside the release's bucket families (`BucketFamilyKey` of vllm/v1/metrics/buckets.py, generated per release: `request_latency`, `time_to_first_token`, `inter_token_latency`, ...).

    ## Why
    vLLM stops: "custom_histogram_buckets: unknown bucket family 'e2e_latency'; known families: [...]".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --custom-histogram-buckets '{"e2e_latency": [0.1, 1.0]}'
    ```

    ## Fix
    Use one of the families vLLM lists.

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

    code = "SL762"
    name = "histogram-bucket-unknown-family"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (UNKNOWN_FAMILY,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--custom-histogram-buckets"
    requires = ("--custom-histogram-buckets",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, UNKNOWN_FAMILY)
