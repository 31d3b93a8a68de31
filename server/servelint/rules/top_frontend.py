"""OpenAI-server options that contradict each other: structured-output
settings the chosen backend cannot honour, and automatic tool choice without
a tool-call parser."""

from __future__ import annotations

import json
from typing import Any, Iterable

from ..diagnostics import Category, Severity
from ..knowledge.validators import VllmCheck
from . import top_facts as tf
from . import vllm_state as st
from .base import Context, Finding, Rule

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

    ## vLLM source
    `StructuredOutputsConfig._validate_structured_output_config`,
    vllm/config/structured_outputs.py: 0.25.0-0.30.0:66, 0.31.0:65,
    0.32.0:64, 0.33.0:69.
    """

    code = "SL321"
    vllm_checks = (VllmCheck("whitespace", "disable_any_whitespace is only supported for", "vllm/config/structured_outputs.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "disable-any-whitespace-backend"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--structured-outputs-config"
    reads = frozenset({"structured_outputs_config"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        flags = st.written(inv, "structured_outputs_config")
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
            merged = st.json_of(inv, "structured_outputs_config")
            if merged.known:
                objects.append(([f for f in flags if f.dotted_key is not None][-1], merged.value))
        for flag, obj in objects:
            if not tf.json_keys_known(inv, "structured_outputs_config", obj):
                continue  # pydantic refuses the unknown key first
            if _truthy(obj.get("disable_any_whitespace")) is not True:
                continue
            backend = obj.get("backend", "auto")
            if backend not in _BACKENDS or backend in ("xgrammar", "guidance"):
                continue
            message = "disable_any_whitespace is only supported for xgrammar and guidance backends."
            note = f"backend is {backend}" + (" (the default)" if "backend" not in obj else "")
            yield tf.finding(ctx, flag, message, "whitespace", note=note)
            return


class AutoToolChoiceWithoutParser(Rule):
    """`--enable-auto-tool-choice` without `--tool-call-parser`.

    ## What it does
    Reports `--enable-auto-tool-choice` when no `--tool-call-parser` is
    given (or it is empty or `None`).

    ## Why
    Automatic tool choice needs a parser to find tool calls in the model's
    output. `vllm serve` checks its arguments before loading anything and
    stops with "Error: --enable-auto-tool-choice requires
    --tool-call-parser".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --enable-auto-tool-choice
    ```

    ## Fix
    Add `--tool-call-parser NAME` for the model's tool-call format
    (`hermes` for Qwen, `llama3_json` for Llama 3.1, `mistral`...).

    ## vLLM source
    `validate_parsed_serve_args`: vllm/entrypoints/openai/cli_args.py
    0.25.0/0.26.0:396, 0.27.x:415, 0.28.0:423;
    vllm/entrypoints/launchers/cli_args.py 0.29.0:432, 0.30.0:449,
    0.31.0:469, 0.32.0:524; vllm/entrypoints/common/cli_args.py 0.33.0:554.
    """

    code = "SL322"
    vllm_checks = (VllmCheck("tool_parser", "--enable-auto-tool-choice requires --tool-call-parser"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "auto-tool-choice-requires-parser"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--enable-auto-tool-choice"
    partners = ("--tool-call-parser",)
    reads = frozenset({"enable_auto_tool_choice", "tool_call_parser"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        auto = st.value_of(inv, "enable_auto_tool_choice")
        if auto.how != "flag" or not auto.value:
            return
        parser = st.value_of(inv, "tool_call_parser")
        if parser.how == "unknown" and st.written(inv, "tool_call_parser"):
            return
        if parser.value:
            return
        message = "Error: --enable-auto-tool-choice requires --tool-call-parser"
        rel = tf.related(ctx, parser.flags, "tool-call parser unset by {flag}")
        yield tf.finding(ctx, auto.flags[-1], message, "tool_parser", related_to=rel)
