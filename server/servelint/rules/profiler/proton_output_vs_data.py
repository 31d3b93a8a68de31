"""SL760: a Proton output or graph attribution that does not fit `proton_data`."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import ATTRIBUTION_FLUSHING, ATTRIBUTION_TREE, CHROME_TRACE, HATCHET_TREE, report


class ProtonOutputVsData(Rule):
    """A Proton output format or graph attribution that does not fit `proton_data` or `proton_mode`.

    ## What it does
    With `profiler: proton`, reports `proton_graph_attribution` with
    `proton_data` other than `tree` or with a `periodic_flushing` mode,
    `proton_output_format: chrome_trace` with `proton_data` other than
    `trace`, and `hatchet`/`hatchet_msgpack` output with `proton_data` other
    than `tree`.

    ## Why
    Hatchet files and graph attribution need the tree data, a Chrome trace
    the trace data; `ProfilerConfig` stops: "chrome_trace output requires
    proton_data='trace'" (and likewise for the others; "proton_graph_attribution
    is incompatible with periodic_flushing: both manage Proton data phases.").

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/p", "proton_output_format": "chrome_trace"}'
    ```

    ## Fix
    Set `proton_data` to what the output needs (`trace` for `chrome_trace`,
    `tree` otherwise), or drop the output format or the attribution.

    ## Evidence
    The JSON of `--profiler-config` as written (dotted keys merged). Silent
    when a key is not a field of `ProfilerConfig` in the release, when a
    value's type or range is not the field's (pydantic refuses it first), and
    when an earlier check of the validator fails first.

    ## vLLM source
    `ProfilerConfig._validate_profiler_config`, the Proton checks, in this order: attribution (0.30.0 on), Chrome trace, Hatchet.
    """

    code = "SL760"
    name = "proton-output-vs-data"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (ATTRIBUTION_TREE, ATTRIBUTION_FLUSHING, CHROME_TRACE, HATCHET_TREE,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--profiler-config"
    requires = ("--profiler-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, ATTRIBUTION_TREE, ATTRIBUTION_FLUSHING, CHROME_TRACE, HATCHET_TREE)
