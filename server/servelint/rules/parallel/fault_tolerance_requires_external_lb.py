"""SL535: fault tolerance without external data-parallel load balancing."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag, switch
from ...derive.parallel import data_parallel_args
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("parallel.fault_tolerance_requires_external_lb", "Fault tolerance requires external load balancer mode",
                   "vllm/engine/arg_utils.py")


class FaultToleranceRequiresExternalLb(Rule):
    """`--enable-fault-tolerance` without external data-parallel load balancing.

    ## What it does
    Reports `--enable-fault-tolerance` in a launch that neither writes
    `--data-parallel-rank` nor turns on `--data-parallel-external-lb`.

    ## Why
    Fault tolerance recovers one failed data-parallel engine while the
    others keep serving, which only works when each engine is a separate
    process behind an external load balancer. `EngineArgs.create_engine_config`
    stops with "Fault tolerance requires external load balancer mode
    (--data-parallel-external-lb or --data-parallel-rank). Internal LB mode
    is not supported."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 8 --enable-fault-tolerance
    ```

    ## Fix
    Run one `vllm serve` per rank with `--data-parallel-rank`, or remove
    `--enable-fault-tolerance`.

    ## Evidence
    The flags as written. `--fault-tolerance-config` on the command line
    does not turn fault tolerance on (vLLM parses it into its config class,
    and only a Python dict enables it).

    ## vLLM source
    `EngineArgs.create_engine_config`, after the `--nnodes` checks.
    """

    code = "SL535"
    name = "fault-tolerance-requires-external-lb"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enable-fault-tolerance"
    requires = ("--enable-fault-tolerance",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        ft = known_flag(ctx.invocation, "enable_fault_tolerance")
        if ft is None or not switch(ctx.invocation, "enable_fault_tolerance"):
            return
        args = data_parallel_args(ctx)
        if args is None or args.external_lb or args.rank is not None:
            return
        # With --nnodes the rank of external LB is inferred, but only under
        # --data-parallel-external-lb, which is off here.
        yield finding(ctx, ft, vllm_message(ctx, _CHECK.key), _CHECK.key)
