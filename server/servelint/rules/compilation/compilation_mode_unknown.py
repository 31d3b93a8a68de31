"""SL740: a `--compilation-config` mode name vLLM does not know."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import MODE, report


class CompilationModeUnknown(Rule):
    """A `--compilation-config` `mode` name that is not a compilation mode.

    ## What it does
    Reports a string `mode` in `--compilation-config` (`-cc`) that is not one
    of `NONE`, `STOCK_TORCH_COMPILE`, `DYNAMO_TRACE_ONCE`, `VLLM_COMPILE`
    (any case).

    ## Why
    `CompilationConfig` converts the name before anything else and argparse
    stops: "Invalid compilation mode: vllm. Valid modes are: NONE,
    STOCK_TORCH_COMPILE, DYNAMO_TRACE_ONCE, VLLM_COMPILE".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -cc '{"mode": "vllm"}'
    ```

    ## Fix
    Use a mode name or its number (0-3): `{"mode": "VLLM_COMPILE"}` or
    `{"mode": 3}`.

    ## Evidence
    The JSON of `--compilation-config` as written (dotted keys merged). Silent
    when a key is not a field of `CompilationConfig` in the release, when a
    value's type is not the field's (pydantic refuses it first), and when an
    earlier check of `CompilationConfig` fails first (the field validators of
    `mode` and `cudagraph_mode`, then `__post_init__` in its order).

    ## vLLM source
    The `mode` field validator `CompilationConfig.validate_mode_before`.
    """

    code = "SL740"
    name = "compilation-mode-unknown"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (MODE,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--compilation-config"
    requires = ("--compilation-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, MODE)
