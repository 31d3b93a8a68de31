"""SL743: `custom_ops` with more than one base mode."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import CUSTOM_OPS_BASE, report


class CustomOpsSingleBaseMode(Rule):
    """A `--compilation-config` `custom_ops` list with both `all` and `none` (or one twice).

    ## What it does
    Reports `custom_ops` holding more than one of the base modes `all` and
    `none` (counting repeats).

    ## Why
    The base mode says whether custom ops are on or off unless an entry says
    otherwise; `CompilationConfig` refuses two: "custom_ops can contain only
    one base mode: 'all' or 'none'".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -cc '{"custom_ops": ["all", "none"]}'
    ```

    ## Fix
    Keep one base mode.

    ## Evidence
    The JSON of `--compilation-config` as written (dotted keys merged). Silent
    when a key is not a field of `CompilationConfig` in the release, when a
    value's type is not the field's (pydantic refuses it first), and when an
    earlier check of `CompilationConfig` fails first (the field validators of
    `mode` and `cudagraph_mode`, then `__post_init__` in its order).

    ## vLLM source
    `CompilationConfig.__post_init__`, after the syntax check.
    """

    code = "SL743"
    name = "custom-ops-single-base-mode"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (CUSTOM_OPS_BASE,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--compilation-config"
    requires = ("--compilation-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, CUSTOM_OPS_BASE)
