"""SL713: the deprecated lm-format-enforcer structured-output backend."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_keys_known, json_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding
from ._shared import truthy

_CHECK = VllmCheck("structured_outputs.lmfe_deprecated", "The lm-format-enforcer structured outputs backend is deprecated ",
                   "vllm/config/structured_outputs.py")


class LmFormatEnforcerDeprecated(Rule):
    """The deprecated lm-format-enforcer structured-output backend.

    ## What it does
    Reports `--structured-outputs-config` whose `backend` is
    `lm-format-enforcer`.

    ## Why
    vLLM 0.33.0 deprecates the backend and logs "The lm-format-enforcer
    structured outputs backend is deprecated and will be removed in v0.35.0.
    Use auto, xgrammar, or guidance instead." The launch works today and
    breaks on the release that removes it.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --structured-outputs-config '{"backend": "lm-format-enforcer"}'
    ```

    ## Fix
    Use `"backend": "auto"` (or `xgrammar`, `guidance`); see vLLM's
    structured outputs guide, "Migrating from lm-format-enforcer".

    ## Evidence
    `--structured-outputs-config` as written: the object vLLM keeps (the
    last whole-JSON value, or the one its dotted keys build). Silent when the
    same object is refused for another reason (SL321, SL712).

    ## vLLM source
    `StructuredOutputsConfig._validate_structured_output_config`.
    """

    code = "SL713"
    name = "lm-format-enforcer-deprecated"
    category = Category.DEPRECATED
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.33.0", "0.33.0")
    anchor = "--structured-outputs-config"
    requires = ("--structured-outputs-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        merged = json_of(inv, "structured_outputs_config")
        if merged.how != "flag" or not merged.known:
            return
        obj, flag = merged.value, merged.flags[-1]
        if obj.get("backend") != "lm-format-enforcer" or not json_keys_known(inv, "structured_outputs_config", obj):
            return
        if truthy(obj.get("disable_any_whitespace")) or truthy(obj.get("disable_additional_properties")):
            return  # refused (SL321, SL712)
        message = ("The lm-format-enforcer structured outputs backend is deprecated and will be removed in "
                   "v0.35.0. Use auto, xgrammar, or guidance instead.")
        yield finding(ctx, flag, None, _CHECK.key, message=message)
