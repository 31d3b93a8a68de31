"""SL654: HiSparse with ``cudagraph_mode`` FULL."""

from __future__ import annotations

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ._late import HiSparseCheck, full_cudagraph_mode, hisparse_passes

_CHECK = VllmCheck("vllm.hisparse_no_full_cudagraph", "HiSparse does not support cudagraph_mode=FULL;",
                   "vllm/config/vllm.py")


class HisparseNoFullCudagraph(HiSparseCheck):
    """HiSparse with `"cudagraph_mode": "FULL"` in `--compilation-config`.

    ## What it does
    For target `cuda`, reports a `--compilation-config` (`-cc`) that sets
    `cudagraph_mode` to `FULL` on a launch that turns HiSparse on (a
    `hisparse_config` in `--attention-config`, or HiSparseConnector in
    `--kv-transfer-config`), when pipeline and decode context parallelism
    are off (else vLLM reports those first).

    ## Why
    HiSparse's prefill path cannot be captured in a FULL graph. vLLM stops
    while building its config: "HiSparse does not support
    cudagraph_mode=FULL; use FULL_AND_PIECEWISE (the default), which
    captures FULL graphs for decode batches."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3.2 -tp 8 --attention-config '{"hisparse_config": {}}' \\
        -cc '{"cudagraph_mode": "FULL"}'
    ```

    ## Fix
    Remove `cudagraph_mode` (FULL_AND_PIECEWISE is the default) or set it
    to `FULL_AND_PIECEWISE`.

    ## Evidence
    The flags as written and the declared target; silent with
    `--enforce-eager` (vLLM turns CUDA graphs off before the check) or a
    speculative config (which may override the mode).

    ## vLLM source
    `VllmConfig.__post_init__`, the HiSparse block (0.32.0+). Verified
    from vLLM's source only: on the vllm-oracle's CPU platform the CUDA
    check fires first.
    """

    code = "SL654"
    name = "hisparse-no-full-cudagraph"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.32.0", "0.33.0")
    anchor = "--compilation-config"
    partners = ("--attention-config", "--kv-transfer-config")
    requires = ("--compilation-config",)

    def blocker(self, ctx):
        flag = full_cudagraph_mode(ctx)
        if flag is None or not hisparse_passes(ctx, "full"):
            return None
        return flag, ""
