"""SL653: HiSparse with decode context parallelism."""

from __future__ import annotations

from ...derive.base import is_int
from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ._late import HiSparseCheck, hisparse_passes

_CHECK = VllmCheck("vllm.hisparse_no_dcp", "HiSparse does not support decode context parallelism.",
                   "vllm/config/vllm.py")


class HisparseNoDecodeContextParallel(HiSparseCheck):
    """HiSparse with `--decode-context-parallel-size` above 1.

    ## What it does
    For target `cuda`, reports `--decode-context-parallel-size` (`-dcp`)
    above 1 on a launch that turns HiSparse on (a `hisparse_config` in
    `--attention-config`, or HiSparseConnector in `--kv-transfer-config`),
    when the pipeline-parallel size is 1 (else vLLM reports that first).

    ## Why
    HiSparse keeps whole sequences' sparse KV on the host; DCP shards the
    KV cache across ranks. vLLM stops while building its config: "HiSparse
    does not support decode context parallelism."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3.2 -tp 8 -dcp 8 --attention-config '{"hisparse_config": {}}'
    ```

    ## Fix
    Remove `-dcp`, or turn HiSparse off.

    ## Evidence
    The flags as written and the declared target (silent when one is only
    known at run time).

    ## vLLM source
    `VllmConfig.__post_init__`, the HiSparse block. Verified from vLLM's
    source only: on the vllm-oracle's CPU platform the CUDA check fires
    first.
    """

    code = "SL653"
    name = "hisparse-no-decode-context-parallel"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.30.0", "0.33.0")
    anchor = "--decode-context-parallel-size"
    partners = ("--attention-config", "--kv-transfer-config")
    requires = ("--decode-context-parallel-size",)

    def blocker(self, ctx):
        inv = ctx.invocation
        dcp = value_of(inv, "decode_context_parallel_size")
        if dcp.how != "flag" or not is_int(dcp.value) or dcp.value <= 1 or not dcp.flags:
            return None
        if not hisparse_passes(ctx, "dcp"):
            return None
        return dcp.flags[-1], ""
