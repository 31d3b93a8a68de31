"""SL541: `--headless` with `--data-parallel-hybrid-lb`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag, switch, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ...model import Entry
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("parallel.headless_hybrid_lb", "data_parallel_hybrid_lb is not applicable in headless mode",
                   "vllm/engine/arg_utils.py")


class HeadlessHybridLb(Rule):
    """`vllm serve --headless` with `--data-parallel-hybrid-lb`.

    ## What it does
    Reports `--data-parallel-hybrid-lb` in a `vllm serve --headless` launch.

    ## Why
    A headless node runs engines only, no API server, while hybrid load
    balancing is an API server per node. `vllm serve --headless` builds the
    engine config in headless mode, where vLLM asserts "data_parallel_hybrid_lb
    is not applicable in headless mode".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --headless --data-parallel-size 4 --data-parallel-size-local 2 \\
        --data-parallel-start-rank 2 --data-parallel-hybrid-lb
    ```

    ## Fix
    Remove `--data-parallel-hybrid-lb` from the headless nodes; the node
    with the API server sets the load-balancing mode.

    ## Evidence
    The flags as written, for the `vllm serve` entry point (the only one
    with `--headless`).

    ## vLLM source
    `EngineArgs.create_engine_config(headless=True)`, called by
    `run_headless` (vllm/entrypoints/cli/serve.py), which repeats the check.
    """

    code = "SL541"
    name = "headless-hybrid-lb"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-hybrid-lb"
    partners = ("--headless",)
    requires = ("--data-parallel-hybrid-lb", "--headless")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        hyb = known_flag(inv, "data_parallel_hybrid_lb")
        if hyb is None or not switch(inv, "data_parallel_hybrid_lb") or not switch(inv, "headless"):
            return
        if inv.launch.entry is not Entry.SERVE:
            return
        yield finding(ctx, hyb, vllm_message(ctx, _CHECK.key), _CHECK.key,
                      related_to=related(ctx, value_of(inv, "headless").flags, "headless mode set by {flag}"))
