"""SL742: a `custom_ops` entry without `+` or `-`."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule
from ._shared import CUSTOM_OPS_SYNTAX, report


class CustomOpsSyntax(Rule):
    """A `--compilation-config` `custom_ops` entry that is not `all`, `none`, `+op` or `-op`.

    ## What it does
    Reports the first entry of `custom_ops` that is neither `all` nor `none`
    and does not start with `+` or `-` followed by an op name.

    ## Why
    `custom_ops` turns registered custom ops on (`+rms_norm`) or off
    (`-rms_norm`) over a base mode; a bare name means neither and
    `CompilationConfig` stops: "Invalid syntax 'rms_norm' for custom op, must
    be 'all', 'none', '+op' or '-op' (where 'op' is the registered op name)".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -cc '{"custom_ops": ["rms_norm"]}'
    ```

    ## Fix
    Prefix the op with `+` to enable it or `-` to disable it.

    ## Evidence
    The JSON of `--compilation-config` as written (dotted keys merged). Silent
    when a key is not a field of `CompilationConfig` in the release, when a
    value's type is not the field's (pydantic refuses it first), and when an
    earlier check of `CompilationConfig` fails first (the field validators of
    `mode` and `cudagraph_mode`, then `__post_init__` in its order).

    ## vLLM source
    `CompilationConfig.__post_init__`, the first `custom_ops` check.
    """

    code = "SL742"
    name = "custom-ops-syntax"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (CUSTOM_OPS_SYNTAX,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--compilation-config"
    requires = ("--compilation-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        yield from report(ctx, CUSTOM_OPS_SYNTAX)
