"""SL757: `profiler: torch` without `torch_profiler_dir`."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import TORCH_DIR, report


class TorchProfilerRequiresDir(Rule):
    """`profiler: torch` without a `torch_profiler_dir`.

    ## What it does
    Reports `--profiler-config` choosing `profiler: torch` with no (or an
    empty) `torch_profiler_dir`.

    ## Why
    Each worker writes its traces under that directory; `ProfilerConfig`
    stops: "torch_profiler_dir must be set when profiler is 'torch'".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --profiler-config '{"profiler": "torch"}'
    ```

    ## Fix
    Add `"torch_profiler_dir": "/path/to/traces"`.

    ## Evidence
    The JSON of `--profiler-config` as written (dotted keys merged). Silent
    when a key is not a field of `ProfilerConfig` in the release, when a
    value's type or range is not the field's (pydantic refuses it first), and
    when an earlier check of the validator fails first.

    ## vLLM source
    `ProfilerConfig._validate_profiler_config`, after the directory-needs-torch check.
    """

    code = "SL757"
    name = "torch-profiler-requires-dir"
    category = Category.CONFIG
    severity = Severity.ERROR
    vllm_checks = (TORCH_DIR,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--profiler-config"
    requires = ("--profiler-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, TORCH_DIR)
