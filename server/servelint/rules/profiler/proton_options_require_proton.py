"""SL758: Proton options without `profiler: proton`."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import PROTON_OPTIONS, report


class ProtonOptionsRequireProton(Rule):
    """`proton_*` options set while `profiler` is not `proton`.

    ## What it does
    Reports `--profiler-config` giving a `proton_*` option a value other than
    its default (`proton_profiler_dir`, `proton_context`, `proton_data`,
    `proton_backend`, `proton_mode`, `proton_hook`, `proton_output_format`,
    `proton_graph_attribution`) while `profiler` is not `proton`.

    ## Why
    The options configure the Triton Proton profiler only; `ProfilerConfig`
    lists the ones set and stops: "proton_profiler_dir, proton_data only
    applicable when profiler is set to 'proton'".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --profiler-config '{"proton_profiler_dir": "/tmp/proton"}'
    ```

    ## Fix
    Add `"profiler": "proton"`, or drop the Proton options.

    ## Evidence
    The JSON of `--profiler-config` as written (dotted keys merged). Silent
    when a key is not a field of `ProfilerConfig` in the release, when a
    value's type or range is not the field's (pydantic refuses it first), and
    when an earlier check of the validator fails first.

    ## vLLM source
    `ProfilerConfig._validate_profiler_config`, after the torch checks (0.28.0 on).
    """

    code = "SL758"
    name = "proton-options-require-proton"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (PROTON_OPTIONS,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--profiler-config"
    requires = ("--profiler-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, PROTON_OPTIONS)
