"""SL755: torch profiler options without `profiler: torch`."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import ACTIVITIES_TORCH, CAPTURE_TORCH, DIR_TORCH, report


class TorchProfilerOptionsRequireTorch(Rule):
    """`torch_profiler_activities`, `torch_profiler_dir` or `capture_torch_profiler` without `profiler: torch`.

    ## What it does
    Reports `--profiler-config` setting `torch_profiler_activities`, a
    non-empty `torch_profiler_dir` or `capture_torch_profiler: true` while
    `profiler` is not `torch` (unset, `cuda` or `proton`).

    ## Why
    These options configure the PyTorch profiler only; `ProfilerConfig`
    stops: "torch_profiler_dir is only applicable when profiler is set to
    'torch'" (likewise for `torch_profiler_activities` and
    `capture_torch_profiler`).

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --profiler-config '{"torch_profiler_dir": "/tmp/traces"}'
    ```

    ## Fix
    Add `"profiler": "torch"`, or drop the torch options.

    ## Evidence
    The JSON of `--profiler-config` as written (dotted keys merged). Silent
    when a key is not a field of `ProfilerConfig` in the release, when a
    value's type or range is not the field's (pydantic refuses it first), and
    when an earlier check of the validator fails first.

    ## vLLM source
    `ProfilerConfig._validate_profiler_config`: the activities check first (0.31.0 on), the directory check, and the capture check last (0.26.0 on).
    """

    code = "SL755"
    name = "torch-profiler-options-require-torch"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (ACTIVITIES_TORCH, DIR_TORCH, CAPTURE_TORCH,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--profiler-config"
    requires = ("--profiler-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, ACTIVITIES_TORCH, DIR_TORCH, CAPTURE_TORCH)
