"""SL723: a reasoning parser that no registered reasoning parser is called."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_of, switch, value_of, written
from ...derive.parsers import REASONING_SORTED, closest, plugin_may_register, registered, runs_setup_server
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ...model import Entry
from ..base import Context, Finding, Rule, finding, release_has, vllm_message

# validate_api_server_args: the parser of --structured-outputs-config.
_CHECK = VllmCheck("reasoning_parser.unknown", "invalid reasoning parser: ")
# ReasoningParserManager.get_reasoning_parser, reached by
# ReasoningConfig.initialize_token_ids while the engine config is built.
_NOT_FOUND = VllmCheck("reasoning_parser.not_found", "not found. Available parsers: ",
                       "vllm/reasoning/abs_reasoning_parsers.py")
# parse_reasoning_parser, the type of --reasoning-parser from 0.33.0: `none`
# (any case) is the unset default; before, `none` is looked up as a name.
_NONE_UNSET = VllmCheck("reasoning_parser.none_unset", 'return "" if val.lower() == "none" else val',
                        "vllm/engine/arg_utils.py", code=True)


class ReasoningParserUnknown(Rule):
    """A reasoning parser that no registered reasoning parser is called.

    ## What it does
    Reports a `--reasoning-parser`, or a `reasoning_parser` key of
    `--structured-outputs-config`, that is not one of the reasoning parsers
    the release registers (`deepseek_r1`, `qwen3`, `openai_gptoss`,
    `mistral`... 42 in 0.33.0), when no `--reasoning-parser-plugin` may
    register it.

    ## Why
    vLLM looks the name up and stops. A `--reasoning-parser` is looked up
    while the engine config is built: "Reasoning parser 'qwen33' not found.
    Available parsers: beam, cohere_command3, ..." (a `KeyError`). The
    `reasoning_parser` of `--structured-outputs-config` is checked by the
    API server before it binds its port: "invalid reasoning parser: qwen33
    (chose from { beam,cohere_command3,... })".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --reasoning-parser qwen33
    ```

    ## Fix
    Use a name from the list in the message (the closest is suggested), or
    load the parser's module with `--reasoning-parser-plugin FILE`. To turn
    reasoning parsing off leave the flag out (`none` does it from 0.33.0).

    ## Evidence
    The written `--reasoning-parser` and `--structured-outputs-config`
    (JSON, dotted keys, `--config` file) and the release's registered
    names, generated from its wheel (`knowledge/data/parsers.json`). Silent
    when the name is only known at run time, when `--reasoning-parser-plugin`
    names a plugin (vLLM imports it first, when its value is longer than 3
    characters) or is only known at run time, for `--reasoning-parser none`
    in any case from 0.33.0 (the unset default; earlier releases look `none`
    up as a name and fail), with `--reasoning-config` (which may give the reasoning
    strings itself; 0.25.0 then skips the lookup) or `--skip-tokenizer-init`,
    and, for the `--structured-outputs-config` key, for a headless launch
    or `--grpc` (no HTTP API server checks it). A parser registered by a
    plugin package installed in the image (`vllm.general_plugins`) is not
    seen.

    ## vLLM source
    `ReasoningParserManager.get_reasoning_parser` (from
    `ReasoningConfig.initialize_token_ids`, which `VllmConfig` runs when a
    reasoning parser is set) and `validate_api_server_args`, called by
    `setup_server` (vllm/entrypoints/common/cli_args.py in 0.33.0,
    launchers/launcher.py in 0.29.0-0.32.0, openai/api_server.py before).
    vLLM's oracle does not run `setup_server`, and it records the first as a
    raw `KeyError` whose text Python quotes: golden cases.
    """

    code = "SL723"
    name = "reasoning-parser-unknown"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_NOT_FOUND, _CHECK, REASONING_SORTED, _NONE_UNSET)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--reasoning-parser"
    partners = ("--reasoning-parser-plugin",)
    requires = ("--reasoning-parser", "--structured-outputs-config")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.launch.entry not in (Entry.SERVE, Entry.IMAGE, Entry.API_SERVER):
            return
        names = registered(ctx.version, "reasoning")
        if names is None or plugin_may_register(ctx, "reasoning_parser_plugin"):
            return
        yield from self._json_key(ctx, names)
        yield from self._flag(ctx, names)

    def _json_key(self, ctx: Context, names: tuple) -> Iterable[Finding]:
        inv = ctx.invocation
        if not written(inv, "structured_outputs_config"):
            return
        obj = json_of(inv, "structured_outputs_config")
        if obj.how != "flag" or not isinstance(obj.value, dict):
            return
        name = obj.value.get("reasoning_parser")
        if not isinstance(name, str) or not name or name in names:
            return
        plugin = obj.value.get("reasoning_parser_plugin")
        if plugin or runs_setup_server(ctx) is not True:
            return
        message = vllm_message(ctx, _CHECK.key, name, ",".join(names))
        if message is None:
            return
        yield finding(ctx, obj.flags[-1], message, _CHECK.key, note=_did_you_mean(name, names))

    def _flag(self, ctx: Context, names: tuple) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.last("reasoning_parser") is None:
            return
        v = value_of(inv, "reasoning_parser")
        if v.how != "flag" or not isinstance(v.value, str) or not v.value.strip():
            return
        name = v.value
        if name in names or (name.lower() == "none" and release_has(ctx, _NONE_UNSET.key)):
            return
        if written(inv, "reasoning_config") or switch(inv, "skip_tokenizer_init") is not False:
            return
        message = vllm_message(ctx, _NOT_FOUND.key, name, ", ".join(names))
        if message is None:
            return
        yield finding(ctx, v.flags[-1], message, _NOT_FOUND.key, note=_did_you_mean(name, names))


def _did_you_mean(name: str, names: tuple) -> str:
    close = closest(name, names)
    return f"did you mean {close}?" if close else ""
