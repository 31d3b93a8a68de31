"""SL759: `profiler: proton` without a local `proton_profiler_dir`."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import PROTON_DIR, PROTON_LOCAL, report


class ProtonProfilerDirInvalid(Rule):
    """`profiler: proton` without `proton_profiler_dir`, or with a URI for it.

    ## What it does
    Reports `--profiler-config` choosing `profiler: proton` with no (or an
    empty) `proton_profiler_dir`, and a `proton_profiler_dir` that is a URI
    (`s3://...`, `gs://...`).

    ## Why
    Proton writes one file per rank into a local directory; `ProfilerConfig`
    stops: "proton_profiler_dir must be set when profiler is 'proton'", or
    "proton_profiler_dir must be a local directory".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --profiler-config '{"profiler": "proton", "proton_profiler_dir": "s3://bucket/traces"}'
    ```

    ## Fix
    Set `proton_profiler_dir` to a local path.

    ## Evidence
    The JSON of `--profiler-config` as written (dotted keys merged). Silent
    when a key is not a field of `ProfilerConfig` in the release, when a
    value's type or range is not the field's (pydantic refuses it first), and
    when an earlier check of the validator fails first.

    ## vLLM source
    `ProfilerConfig._validate_profiler_config`, after the Proton options check (0.28.0 on).
    """

    code = "SL759"
    name = "proton-profiler-dir-invalid"
    category = Category.CONFIG
    severity = Severity.ERROR
    vllm_checks = (PROTON_DIR, PROTON_LOCAL,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--profiler-config"
    requires = ("--profiler-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, PROTON_DIR, PROTON_LOCAL)
