"""SL322: `--enable-auto-tool-choice` without `--tool-call-parser`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of, written
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related


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

    ## Evidence
    A written `--enable-auto-tool-choice` and `--tool-call-parser` (silent
    when the parser is only known at run time).

    ## vLLM source
    `validate_parsed_serve_args`, which moved from
    vllm/entrypoints/openai/cli_args.py to vllm/entrypoints/launchers/ (0.29.0)
    and vllm/entrypoints/common/ (0.33.0).
    """

    code = "SL322"
    vllm_checks = (VllmCheck("tool_parser", "--enable-auto-tool-choice requires --tool-call-parser"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "auto-tool-choice-requires-parser"
    category = Category.INCOMPATIBLE
    requires = ("--enable-auto-tool-choice",)
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--enable-auto-tool-choice"
    partners = ("--tool-call-parser",)
    requires = ("--enable-auto-tool-choice", "--tool-call-parser")
    reads = frozenset({"enable_auto_tool_choice", "tool_call_parser"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        auto = value_of(inv, "enable_auto_tool_choice")
        if auto.how != "flag" or not auto.value:
            return
        parser = value_of(inv, "tool_call_parser")
        if parser.how == "unknown" and written(inv, "tool_call_parser"):
            return
        if parser.value:
            return
        message = "Error: --enable-auto-tool-choice requires --tool-call-parser"
        rel = related(ctx, parser.flags, "tool-call parser unset by {flag}")
        yield finding(ctx, auto.flags[-1], message, "tool_parser", related_to=rel)
