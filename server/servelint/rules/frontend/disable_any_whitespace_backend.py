"""SL321: `disable_any_whitespace` with a structured-output backend that cannot honour it."""

from __future__ import annotations

import json
from typing import Any, Iterable

from ...derive.flags import json_keys_known, json_of, written
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding

# StructuredOutputsBackend (config/structured_outputs.py, the same five in
# 0.25.0-0.33.0).
_BACKENDS = ("auto", "xgrammar", "guidance", "outlines", "lm-format-enforcer")
_TRUE = ("true", "1", "yes", "on", "t", "y")


def _truthy(value: Any) -> bool | None:
    """pydantic's lax bool: None when pydantic would reject the value."""
    if isinstance(value, bool):
        return value
    if value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        low = value.strip().lower()
        if low in _TRUE:
            return True
        if low in ("false", "0", "no", "off", "f", "n"):
            return False
    return None



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
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--structured-outputs-config"
    requires = ("--structured-outputs-config",)
    reads = frozenset({"structured_outputs_config"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        flags = written(inv, "structured_outputs_config")
        if not flags or not all(f.exact and not f.missing_value for f in flags):
            return
        objects: list[tuple[object, dict]] = []
        for f in flags:
            if f.dotted_key is None and f.values:
                try:
                    value = json.loads(f.values[0].text)
                except (ValueError, RecursionError):
                    continue
                if isinstance(value, dict):
                    objects.append((f, value))
        if any(f.dotted_key is not None for f in flags):
            merged = json_of(inv, "structured_outputs_config")
            if merged.known:
                objects.append(([f for f in flags if f.dotted_key is not None][-1], merged.value))
        for flag, obj in objects:
            if not json_keys_known(inv, "structured_outputs_config", obj):
                continue  # pydantic refuses the unknown key first
            if _truthy(obj.get("disable_any_whitespace")) is not True:
                continue
            backend = obj.get("backend", "auto")
            if backend not in _BACKENDS or backend in ("xgrammar", "guidance"):
                continue
            message = "disable_any_whitespace is only supported for xgrammar and guidance backends."
            note = f"backend is {backend}" + (" (the default)" if "backend" not in obj else "")
            yield finding(ctx, flag, message, "whitespace", note=note)
            return
