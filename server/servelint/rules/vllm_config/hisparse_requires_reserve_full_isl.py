"""SL655: HiSparse with ``--no-scheduler-reserve-full-isl``."""

from __future__ import annotations

from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ._late import HiSparseCheck, hisparse_passes

_CHECK = VllmCheck("vllm.hisparse_reserve_full_isl", "HiSparse requires --scheduler-reserve-full-isl;",
                   "vllm/config/vllm.py")


class HisparseRequiresReserveFullIsl(HiSparseCheck):
    """HiSparse with `--no-scheduler-reserve-full-isl`.

    ## What it does
    For target `cuda`, reports `--no-scheduler-reserve-full-isl` on a
    launch that turns HiSparse on (a `hisparse_config` in
    `--attention-config`, or HiSparseConnector in `--kv-transfer-config`),
    when the HiSparse checks vLLM runs before this one pass.

    ## Why
    Without reserving the full input length, async loads admitted against
    free host blocks can wait on each other's host pages forever. vLLM
    stops while building its config: "HiSparse requires
    --scheduler-reserve-full-isl; remove --no-scheduler-reserve-full-isl."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3.2 -tp 8 --attention-config '{"hisparse_config": {}}' \\
        --no-scheduler-reserve-full-isl
    ```

    ## Fix
    Remove `--no-scheduler-reserve-full-isl` (reserving is the default).

    ## Evidence
    The flags as written and the declared target.

    ## vLLM source
    `VllmConfig.__post_init__`, the HiSparse block (0.31.0+). Verified
    from vLLM's source only: on the vllm-oracle's CPU platform the CUDA
    check fires first.
    """

    code = "SL655"
    name = "hisparse-requires-reserve-full-isl"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.31.0", "0.33.0")
    anchor = "--scheduler-reserve-full-isl"
    partners = ("--attention-config", "--kv-transfer-config")
    requires = ("--scheduler-reserve-full-isl",)

    def blocker(self, ctx):
        isl = value_of(ctx.invocation, "scheduler_reserve_full_isl")
        if isl.how != "flag" or isl.value is not False or not isl.flags:
            return None
        if not hisparse_passes(ctx, "isl"):
            return None
        return isl.flags[-1], ""
