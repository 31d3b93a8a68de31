"""SL321: `disable_any_whitespace` with a structured-output backend that cannot honour it."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding
from ._shared import structured_outputs_objects, whitespace_refused


class DisableAnyWhitespaceBackend(Rule):
    """`disable_any_whitespace` with a structured-output backend other than xgrammar or guidance.

    ## What it does
    Reports `--structured-outputs-config` with `disable_any_whitespace`
    true when `backend` is not `xgrammar` or `guidance`, including the
    default `auto`. Each whole-JSON value is checked (argparse validates
    every occurrence), and the object that the dotted keys
    (`--structured-outputs-config.backend ...`) build.

    ## Why
    The flag's value is validated while parsing the command line: vLLM exits
    with "argument --structured-outputs-config: 1 validation error for
    StructuredOutputsConfig ... disable_any_whitespace is only supported for
    xgrammar and guidance backends."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --structured-outputs-config '{"disable_any_whitespace": true}'
    ```

    ## Fix
    Add `"backend": "xgrammar"` (or `"guidance"`), or drop
    `disable_any_whitespace`.

    ## Evidence
    `--structured-outputs-config` as written: each whole JSON value, and
    the object its dotted keys build (a value only known at run time, or
    one with a key the config class does not have, is not judged).

    ## vLLM source
    `StructuredOutputsConfig._validate_structured_output_config`.
    """

    code = "SL321"
    vllm_checks = (VllmCheck("whitespace", "disable_any_whitespace is only supported for", "vllm/config/structured_outputs.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "disable-any-whitespace-backend"
    category = Category.INCOMPATIBLE
    requires = ("--structured-outputs-config",)
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--structured-outputs-config"
    requires = ("--structured-outputs-config",)
    reads = frozenset({"structured_outputs_config"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        for flag, obj in structured_outputs_objects(ctx):
            if not whitespace_refused(obj):
                continue
            backend = obj.get("backend", "auto")
            message = "disable_any_whitespace is only supported for xgrammar and guidance backends."
            note = f"backend is {backend}" + (" (the default)" if "backend" not in obj else "")
            yield finding(ctx, flag, message, "whitespace", note=note)
            return
