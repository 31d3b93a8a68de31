"""SL715: `--headless` with a positive `--api-server-count`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_or_none, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import headless_serve

_CHECK = VllmCheck("serve.headless_api_server_count", "used with --headless (no API servers are started in ")


class HeadlessApiServerCount(Rule):
    """`--headless` with a positive `--api-server-count`.

    ## What it does
    Reports `--api-server-count` above 0 on a `vllm serve --headless`
    launch.

    ## Why
    A headless node runs engines only and starts no API server. `vllm
    serve` refuses the count before building the engine: "--api-server-count=2
    cannot be used with --headless (no API servers are started in headless
    mode)."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --headless -dp 4 -dpl 2 --data-parallel-start-rank 2 --api-server-count 2
    ```

    ## Fix
    Remove `--api-server-count` from the headless nodes; the node with the
    API servers sets it.

    ## Evidence
    Both flags as written, for the `vllm serve` entry point (the image's
    entrypoint runs it). Silent with `--grpc`, which starts the gRPC server
    before this check.

    ## vLLM source
    The first check of `ServeSubcommand.cmd` in headless mode, before it
    defaults the count to 0 (not run by the oracle: golden case).
    """

    code = "SL715"
    name = "headless-api-server-count"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--api-server-count"
    partners = ("--headless",)
    requires = ("--api-server-count",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        known, count = int_or_none(inv, "api_server_count")
        if not known or count is None or count <= 0 or not headless_serve(ctx):
            return
        flag = value_of(inv, "api_server_count").flags[-1]
        yield finding(ctx, flag, vllm_message(ctx, _CHECK.key, count), _CHECK.key,
                      related_to=related(ctx, value_of(inv, "headless").flags, "headless mode set by {flag}"))
