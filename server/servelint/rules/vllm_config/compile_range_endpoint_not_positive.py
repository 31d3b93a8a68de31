"""SL645: a compile range endpoint that is not a positive number of tokens."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import json_keys_known, json_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("vllm.compile_range_endpoint", "Invalid compile range endpoint: {}", "vllm/config/vllm.py")


class CompileRangeEndpointNotPositive(Rule):
    """`compile_ranges_endpoints` in `--compilation-config` with a value of 0 or below.

    ## What it does
    Reports a `--compilation-config` (`-cc`) whose `compile_ranges_endpoints`
    lists an integer that is 0 or negative.

    ## Why
    The endpoints split the token counts torch.compile specialises for;
    each is a number of tokens. vLLM asserts while building its config:
    "Invalid compile range endpoint: 0".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -cc '{"compile_ranges_endpoints": [0, 512]}'
    ```

    ## Fix
    Remove the endpoint (ranges start at 1 on their own), or write a
    positive number of tokens.

    ## Evidence
    The compilation config's object as written (its keys merged); silent
    when it is only known at run time or has a key `CompilationConfig`
    refuses first.

    ## vLLM source
    `VllmConfig._set_compile_ranges` (an `assert`), run on every launch
    near the end of `VllmConfig.__post_init__`.
    """

    code = "SL645"
    name = "compile-range-endpoint-not-positive"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--compilation-config"
    requires = ("--compilation-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        cc = json_of(inv, "compilation_config")
        if cc.how != "flag" or not cc.flags or not json_keys_known(inv, "compilation_config", cc.value):
            return
        endpoints = cc.value.get("compile_ranges_endpoints")
        if not isinstance(endpoints, list) or not all(is_int(x) for x in endpoints):
            return
        bad = next((x for x in endpoints if x <= 0), None)
        if bad is None:
            return
        message = vllm_message(ctx, _CHECK.key, bad)
        if message is None:
            return
        yield finding(ctx, cc.flags[-1], message, _CHECK.key)
