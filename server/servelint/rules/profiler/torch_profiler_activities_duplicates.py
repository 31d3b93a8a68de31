"""SL756: a torch profiler activity listed twice."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import ACTIVITIES_DUPLICATES, report


class TorchProfilerActivitiesDuplicates(Rule):
    """A `torch_profiler_activities` list naming an activity twice.

    ## What it does
    Reports `--profiler-config` `torch_profiler_activities` holding the same
    activity (`CPU`, `CUDA`, `PrivateUse1`, `XPU`) more than once.

    ## Why
    `ProfilerConfig` stops: "torch_profiler_activities must not contain
    duplicates".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --profiler-config '{"profiler": "torch", "torch_profiler_dir": "/tmp/t", "torch_profiler_activities": ["CPU", "CPU"]}'
    ```

    ## Fix
    List each activity once.

    ## Evidence
    The JSON of `--profiler-config` as written (dotted keys merged). Silent
    when a key is not a field of `ProfilerConfig` in the release, when a
    value's type or range is not the field's (pydantic refuses it first), and
    when an earlier check of the validator fails first.

    ## vLLM source
    `ProfilerConfig._validate_profiler_config`, after the activities-need-torch check.
    """

    code = "SL756"
    name = "torch-profiler-activities-duplicates"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (ACTIVITIES_DUPLICATES,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--profiler-config"
    requires = ("--profiler-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, ACTIVITIES_DUPLICATES)
