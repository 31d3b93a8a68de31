"""SL716: external and hybrid data-parallel load balancing in one `vllm serve` launch."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import switch, value_of
from ...derive.serve import lb_modes
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import serve_entry

_CHECK = VllmCheck("serve.lb_modes", "Cannot use more than one data parallel load balancing mode. ")


class DpLbModesExclusive(Rule):
    """External and hybrid data-parallel load balancing in one `vllm serve` launch.

    ## What it does
    Reports a `vllm serve` launch that asks for external load balancing
    (`--data-parallel-external-lb`, or a `--data-parallel-rank`) and hybrid
    load balancing (`--data-parallel-hybrid-lb`, or a
    `--data-parallel-start-rank` without `--data-parallel-hybrid-lb` and
    `--data-parallel-multi-port-external-lb`) at once.

    ## Why
    `vllm serve` picks how many API servers to start from the mode, and stops
    before building the engine: "Cannot use more than one data parallel load
    balancing mode. Choose one of: --data-parallel-multi-port-external-lb,
    --data-parallel-external-lb (or --data-parallel-rank),
    --data-parallel-hybrid-lb (or --data-parallel-start-rank)." A
    `--data-parallel-rank` next to a `--data-parallel-start-rank` is the usual
    way to get there.

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 -dp 4 -dpl 2 --data-parallel-rank 2 --data-parallel-start-rank 2
    ```

    ## Fix
    External LB (one launch per rank): keep `--data-parallel-rank`. Hybrid
    LB (one launch per node): keep `--data-parallel-start-rank` (and
    `--data-parallel-size-local`).

    ## Evidence
    The flags as written, for the `vllm serve` entry point. The
    multi-port supervisor refuses its own combinations earlier (SL5xx); and
    `--data-parallel-hybrid-lb` with `--data-parallel-external-lb`, both
    written, is left to SL530 (the engine's check of the same pair).

    ## vLLM source
    `ServeSubcommand.cmd` detects the mode to default `--api-server-count`
    from it (the oracle stops before `cmd`, hence a golden case).
    """

    code = "SL716"
    name = "dp-lb-modes-exclusive"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-rank"
    requires = ("--data-parallel-rank", "--data-parallel-external-lb", "--data-parallel-start-rank",
                "--data-parallel-hybrid-lb")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if not serve_entry(ctx) or switch(inv, "grpc") is not False:
            return
        modes = lb_modes(ctx)
        if modes is None or modes.multi_port or modes.count < 2:
            return
        if "data_parallel_external_lb" in modes.external_by and "data_parallel_hybrid_lb" in modes.hybrid_by:
            return  # SL530
        anchor = value_of(inv, modes.external_by[-1]).flags
        partners = [f for d in modes.hybrid_by for f in value_of(inv, d).flags]
        if not anchor:
            return
        yield finding(ctx, anchor[-1], vllm_message(ctx, _CHECK.key), _CHECK.key,
                      related_to=related(ctx, partners, "hybrid load balancing asked for by {flag}"))
