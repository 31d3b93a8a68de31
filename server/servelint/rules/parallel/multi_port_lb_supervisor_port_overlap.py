"""SL561: `--data-parallel-supervisor-port` inside the ports of the supervised ranks."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import multi_port_args

_CHECK = VllmCheck("parallel.multi_port_port", 'overlaps with child rank ports')


class MultiPortLbSupervisorPortOverlap(Rule):
    """`--data-parallel-supervisor-port` inside the ports of the supervised ranks.

    ## What it does
    Reports a `vllm serve --data-parallel-multi-port-external-lb` launch that the multi-port
    supervisor refuses: `--data-parallel-supervisor-port` inside the ports of the supervised ranks.

    ## Why
    Rank i of the node listens on `--port` + i; the supervisor's own port (9256 by default) must be
    outside `--port` .. `--port` + `--data-parallel-size-local` - 1. vLLM checks the arguments of
    the supervisor before anything else starts and stops with "Error:
    --data-parallel-supervisor-port 9256 overlaps with child rank ports 9254-9257".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 8 --data-parallel-size-local 4 \\
        --data-parallel-multi-port-external-lb --port 9254
    ```

    ## Fix
    Move `--port` or `--data-parallel-supervisor-port` apart.

    ## Evidence
    The flags as written and the release's defaults; a value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `validate_multi_port_external_lb_args`, called by `validate_parsed_serve_args`, after
    `multi-port-lb-rank-overflow` (SL560).
    """

    code = "SL561"
    name = "multi-port-lb-supervisor-port-overlap"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-multi-port-external-lb"
    requires = ("--data-parallel-multi-port-external-lb",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.invocation.last("data_parallel_multi_port_external_lb") is None:
            return
        a = multi_port_args(ctx, ('dpl', 'port', 'supervisor_port'))
        if a is None or a.dpl is None or a.dpl < 2 or a.port is None or a.supervisor_port is None:
            return  # the local-size check of the supervisor fails first
        if not a.port <= a.supervisor_port <= a.port + a.dpl - 1:
            return
        anchor = known_flag(ctx.invocation, "data_parallel_supervisor_port", "port",
                            "data_parallel_multi_port_external_lb")
        message = vllm_message(ctx, _CHECK.key, a.supervisor_port, a.port, a.port + a.dpl - 1)
        yield finding(ctx, anchor, message, _CHECK.key)
