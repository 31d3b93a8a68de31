"""SL542: fault tolerance with several API server processes."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of, known_flag, switch, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ...model import Entry
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("parallel.fault_tolerance_single_api_server", "Fault tolerance requires a single API server process",
                   "vllm/config/parallel.py")


class FaultToleranceSingleApiServer(Rule):
    """`--enable-fault-tolerance` with `--api-server-count` above 1.

    ## What it does
    Reports a `vllm serve` launch with fault tolerance and more than one API
    server process.

    ## Why
    `vllm serve --api-server-count N` (N above 1) builds the engine config
    for N API server processes; fault tolerance assumes one client manages
    all engines, and `ParallelConfig` stops with "Fault tolerance requires a
    single API server process (--api-server-count=1), but got 2. The FT
    system assumes one AsyncMPClient manages all engines."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 2 --data-parallel-rank 0 \\
        --enable-fault-tolerance --api-server-count 2
    ```

    ## Fix
    Remove `--api-server-count` (fault tolerance runs with external load
    balancing, where it defaults to 1).

    ## Evidence
    The flags as written, for the `vllm serve` entry point (the module
    `vllm.entrypoints.openai.api_server` runs one API server). Elastic EP,
    which caps the count at 1, and `VLLM_USE_RUST_FRONTEND` keep the rule
    silent; so does `--headless`.

    ## vLLM source
    `ParallelConfig._validate_parallel_config`, reached through
    `run_multi_api_server` (vllm/entrypoints/cli/serve.py), which sets the
    process count.
    """

    code = "SL542"
    name = "fault-tolerance-single-api-server"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--api-server-count"
    partners = ("--enable-fault-tolerance",)
    requires = ("--api-server-count", "--enable-fault-tolerance", "VLLM_USE_RUST_FRONTEND")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        count_flag = known_flag(inv, "api_server_count")
        if count_flag is None or not switch(inv, "enable_fault_tolerance"):
            return
        if inv.launch.entry not in (Entry.SERVE, Entry.IMAGE):
            return
        count = int_of(inv, "api_server_count")
        if not count.known or count.value <= 1:
            return
        if switch(inv, "enable_elastic_ep") is not False or switch(inv, "headless") is not False:
            return
        if "VLLM_USE_RUST_FRONTEND" in inv.env:
            return
        yield finding(ctx, count_flag, vllm_message(ctx, _CHECK.key, count.value), _CHECK.key,
                      related_to=related(ctx, value_of(inv, "enable_fault_tolerance").flags,
                                         "fault tolerance turned on by {flag}"))
