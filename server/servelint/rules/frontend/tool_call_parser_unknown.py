"""SL722: `--tool-call-parser` naming no registered tool parser."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.parsers import TOOL_SORTED, closest, plugin_may_register, registered, runs_setup_server
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("tool_parser.unknown", "invalid tool call parser: ")


class ToolCallParserUnknown(Rule):
    """`--tool-call-parser` naming no registered tool parser.

    ## What it does
    Reports `--enable-auto-tool-choice` with a `--tool-call-parser` that is
    not one of the tool parsers the release registers (`hermes`,
    `llama3_json`, `mistral`, `qwen3_coder`... 58 in 0.33.0), when no
    `--tool-parser-plugin` may register it.

    ## Why
    The API server looks the parser up before it binds its port and stops
    with "invalid tool call parser: hermess (chose from { apertus,beam,...
    }})" (a `KeyError`).

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --enable-auto-tool-choice --tool-call-parser hermess
    ```

    ## Fix
    Use a name from the list in the message (the closest is suggested), or
    load the parser's module with `--tool-parser-plugin FILE`.

    ## Evidence
    The written `--enable-auto-tool-choice` and `--tool-call-parser` (CLI,
    `--config` file) and the release's registered names, generated from its
    wheel (`knowledge/data/parsers.json`). Silent when the parser or the
    switch is only known at run time, when `--tool-parser-plugin` names a
    plugin (vLLM imports it first, when its value is longer than 3
    characters) or is only known at run time, for a headless launch (`--headless`,
    `--api-server-count 0`) and for `--grpc`, which never start the HTTP API
    server. A parser registered by a plugin package installed in the image
    (`vllm.general_plugins`) is not seen.

    ## vLLM source
    `validate_api_server_args`, called by `setup_server` (vllm/entrypoints/
    common/cli_args.py in 0.33.0, launchers/launcher.py in 0.29.0-0.32.0,
    openai/api_server.py before). vLLM's oracle does not run it (it stops
    after the engine config): golden case.
    """

    code = "SL722"
    name = "tool-call-parser-unknown"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK, TOOL_SORTED)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--tool-call-parser"
    partners = ("--enable-auto-tool-choice", "--tool-parser-plugin")
    requires = ("--tool-call-parser",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.last("tool_call_parser") is None or inv.last("enable_auto_tool_choice") is None:
            return
        auto = value_of(inv, "enable_auto_tool_choice")
        if auto.how != "flag" or not auto.value:
            return
        parser = value_of(inv, "tool_call_parser")
        if parser.how != "flag" or not isinstance(parser.value, str) or not parser.value:
            return  # unknown, or unset: auto-tool-choice-requires-parser (SL322)
        names = registered(ctx.version, "tool")
        if names is None or parser.value in names:
            return
        if plugin_may_register(ctx, "tool_parser_plugin") or runs_setup_server(ctx) is not True:
            return
        message = vllm_message(ctx, _CHECK.key, parser.value, ",".join(names))
        if message is None:
            return
        close = closest(parser.value, names)
        note = f"did you mean {close}?" if close else ""
        rel = related(ctx, auto.flags, "automatic tool choice turned on by {flag}")
        yield finding(ctx, parser.flags[-1], message, _CHECK.key, note=note, related_to=rel)
