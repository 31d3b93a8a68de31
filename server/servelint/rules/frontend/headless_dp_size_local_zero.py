"""SL717: `vllm serve --headless` with `--data-parallel-size-local 0`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_or_none, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import headless_serve

_CHECK = VllmCheck("serve.headless_dp_size_local", "data_parallel_size_local must be > 0 in headless mode")


class HeadlessDpSizeLocalZero(Rule):
    """`vllm serve --headless` with `--data-parallel-size-local 0`.

    ## What it does
    Reports `--data-parallel-size-local 0` on a `vllm serve --headless`
    launch.

    ## Why
    A headless node exists to run engines; a local data-parallel size of 0
    (a node that only runs the API server) leaves it nothing to do. vLLM
    builds the engine config and then stops: "data_parallel_size_local must
    be > 0 in headless mode".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --headless -dp 4 -dpl 0 --data-parallel-start-rank 0
    ```

    ## Fix
    Give the node the number of data-parallel ranks it runs
    (`--data-parallel-size-local 2`), or run it without `--headless`.

    ## Evidence
    Both flags as written, for the `vllm serve` entry point (silent with
    `--grpc` and with an `--api-server-count` above 0, SL715, which vLLM
    checks first).

    ## vLLM source
    `run_headless` (vllm/entrypoints/cli/serve.py), after the engine config
    is built in headless mode. vLLM's oracle does not run it: golden case.
    """

    code = "SL717"
    name = "headless-dp-size-local-zero"
    requires = ("--data-parallel-size-local",)
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-size-local"
    partners = ("--headless",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        known, local = int_or_none(inv, "data_parallel_size_local")
        count_known, count = int_or_none(inv, "api_server_count")
        if not known or local != 0 or not count_known or not headless_serve(ctx):
            return
        if count is not None and count > 0:
            return  # SL715 first
        flag = value_of(inv, "data_parallel_size_local").flags[-1]
        yield finding(ctx, flag, vllm_message(ctx, _CHECK.key), _CHECK.key,
                      related_to=related(ctx, value_of(inv, "headless").flags, "headless mode set by {flag}"))
