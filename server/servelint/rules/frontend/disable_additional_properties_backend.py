"""SL712: `disable_additional_properties` with a structured-output backend other than guidance."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding
from ._shared import BACKENDS, structured_outputs_objects, truthy, whitespace_refused

_CHECK = VllmCheck("structured_outputs.additional_properties", "disable_additional_properties is only supported ",
                   "vllm/config/structured_outputs.py")


class DisableAdditionalPropertiesBackend(Rule):
    """`disable_additional_properties` with a structured-output backend other than guidance.

    ## What it does
    Reports `--structured-outputs-config` with `disable_additional_properties`
    true when `backend` is not `guidance`, including the default `auto`.
    Each whole-JSON value is checked (argparse validates every occurrence),
    and the object that the dotted keys build.

    ## Why
    Only the guidance backend can refuse the extra properties a JSON schema
    leaves open. The flag's value is validated while parsing the command
    line: vLLM exits with "argument --structured-outputs-config: 1
    validation error for StructuredOutputsConfig ...
    disable_additional_properties is only supported for the guidance
    backend."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --structured-outputs-config '{"disable_additional_properties": true}'
    ```

    ## Fix
    Add `"backend": "guidance"`, or drop `disable_additional_properties`.

    ## Evidence
    `--structured-outputs-config` as written: each whole JSON value, and the
    object its dotted keys build (a value only known at run time, or one with
    a key the config class does not have, is not judged). An object that
    `disable_any_whitespace` already makes vLLM refuse (SL321, checked
    first) is left to that rule.

    ## vLLM source
    `StructuredOutputsConfig._validate_structured_output_config`.
    """

    code = "SL712"
    name = "disable-additional-properties-backend"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--structured-outputs-config"
    requires = ("--structured-outputs-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        for flag, obj in structured_outputs_objects(ctx):
            if whitespace_refused(obj):
                return  # vLLM stops at disable_any_whitespace first
            if truthy(obj.get("disable_additional_properties")) is not True:
                continue
            backend = obj.get("backend", "auto")
            if backend not in BACKENDS or backend == "guidance":
                continue
            message = "disable_additional_properties is only supported for the guidance backend."
            note = f"backend is {backend}" + (" (the default)" if "backend" not in obj else "")
            yield finding(ctx, flag, message, _CHECK.key, note=note)
            return
