"""SL510: a tensor-parallel size that decode-context parallelism does not divide."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of, known_flag, value_of
from ...derive.parallel import DCP_PCP_TOPOLOGY
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("parallel.tp_divisible_by_dcp", ("must be divisible by dcp_size", "must be divisible bydcp_size"),
                   "vllm/config/parallel.py")


class TensorParallelNotDivisibleByDcp(Rule):
    """`--decode-context-parallel-size` that does not divide `--tensor-parallel-size`.

    ## What it does
    Reports a decode-context-parallel size that the tensor-parallel size is
    not a multiple of, when prefill-context parallelism is off (with it on,
    `dcp-pcp-topology` applies instead; 0.25.0 has no such exception).

    ## Why
    Without prefill-context parallelism DCP reuses the GPUs of the
    tensor-parallel group, splitting it into TP/DCP groups. `ParallelConfig`
    stops with "tp_size=2 must be divisible by dcp_size=4." (0.25.0 prints
    "divisible bydcp_size", without the space).

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 -tp 2 --decode-context-parallel-size 4
    ```

    ## Fix
    Choose a DCP size that divides the TP size (`-dcp 2` with `-tp 2`), or
    raise `-tp`.

    ## Evidence
    The sizes as written and the release's defaults; a size servelint
    cannot read keeps it silent.

    ## vLLM source
    `ParallelConfig._validate_parallel_config`, its last checks.
    """

    code = "SL510"
    name = "tp-not-divisible-by-dcp"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--decode-context-parallel-size"
    partners = ("--tensor-parallel-size",)
    requires = ("--decode-context-parallel-size", "--tensor-parallel-size")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        anchor = known_flag(inv, "decode_context_parallel_size")
        if anchor is None:
            return
        tp, dcp = int_of(inv, "tensor_parallel_size"), int_of(inv, "decode_context_parallel_size")
        if not (tp.known and dcp.known) or dcp.value < 1 or tp.value < 1:
            return
        if validators.has(DCP_PCP_TOPOLOGY.key, ctx.version):
            pcp = int_of(inv, "prefill_context_parallel_size")
            if not pcp.known or pcp.value != 1:
                return
        if tp.value % dcp.value == 0:
            return
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key, tp.value, dcp.value), _CHECK.key,
                      related_to=related(ctx, value_of(inv, "tensor_parallel_size").flags,
                                         "tensor-parallel size set by {flag}"))
