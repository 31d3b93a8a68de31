"""SL511: a decode-context-parallel size that fits no axis of prefill-context parallelism."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of, known_flag
from ...derive.parallel import DCP_PCP_TOPOLOGY, PCP_REFUSES_DP
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = DCP_PCP_TOPOLOGY


class DcpPcpTopology(Rule):
    """`--decode-context-parallel-size` that neither is 1 nor spans the PCP or TP x PCP axis.

    ## What it does
    Reports, when `--prefill-context-parallel-size` is above 1, a
    decode-context-parallel size other than 1, the PCP size, or TP x PCP.

    ## Why
    With prefill-context parallelism, DCP shards the KV cache either over
    the PCP ranks or over the whole TP x PCP block. `ParallelConfig` stops
    with "When PCP is enabled, DCP must be disabled, span the PCP axis, or
    span the full TP x PCP axis. Got TP=1, PCP=2, DCP=3; valid DCP sizes
    are [1, 2]."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 -tp 2 --prefill-context-parallel-size 2 --decode-context-parallel-size 3
    ```

    ## Fix
    Use one of the sizes the message lists.

    ## Evidence
    The sizes as written and the release's defaults; a size servelint
    cannot read keeps it silent.

    ## vLLM source
    `ParallelConfig._validate_parallel_config`, its last check; 0.26.0-0.29.0
    refuse prefill-context with data parallelism just before it.
    """

    code = "SL511"
    name = "dcp-pcp-topology"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--decode-context-parallel-size"
    partners = ("--prefill-context-parallel-size",)
    requires = ("--decode-context-parallel-size", "--prefill-context-parallel-size")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        pcp_flag = known_flag(inv, "prefill_context_parallel_size")
        if pcp_flag is None:
            return
        tp, pcp = int_of(inv, "tensor_parallel_size"), int_of(inv, "prefill_context_parallel_size")
        dcp = int_of(inv, "decode_context_parallel_size")
        if not (tp.known and pcp.known and dcp.known) or pcp.value <= 1:
            return
        if validators.has(PCP_REFUSES_DP.key, ctx.version):
            dp = int_of(inv, "data_parallel_size")
            if not dp.known or dp.value > 1:
                return  # "PCP does not support data parallelism yet." comes first
        valid = sorted({1, pcp.value, tp.value * pcp.value})
        if dcp.value in valid:
            return
        anchor = known_flag(inv, "decode_context_parallel_size") or pcp_flag
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key, tp.value, pcp.value, dcp.value, str(valid)), _CHECK.key)
