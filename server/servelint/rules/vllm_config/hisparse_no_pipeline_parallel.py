"""SL652: HiSparse with pipeline parallelism."""

from __future__ import annotations

from ...derive.parallel import pipeline_parallel_size
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ._late import HiSparseCheck

_CHECK = VllmCheck("vllm.hisparse_no_pp", "HiSparse does not support pipeline parallelism.", "vllm/config/vllm.py")


class HisparseNoPipelineParallel(HiSparseCheck):
    """HiSparse (`--attention-config` `hisparse_config`, or a HiSparseConnector) with `--pipeline-parallel-size` above 1.

    ## What it does
    For target `cuda`, reports `--pipeline-parallel-size` above 1 on a
    launch that turns HiSparse on: a `hisparse_config` in
    `--attention-config`, or HiSparseConnector in `--kv-transfer-config`
    (directly or as a MultiConnector child).

    ## Why
    HiSparse's host-resident sparse KV path runs on a single pipeline
    stage. vLLM stops while building its config: "HiSparse does not
    support pipeline parallelism."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3.2 -tp 4 -pp 2 --attention-config '{"hisparse_config": {}}'
    ```

    ## Fix
    Use tensor (or data) parallelism instead of `-pp`, or turn HiSparse off.

    ## Evidence
    The flags as written and the declared target (silent when one is only
    known at run time; on other platforms vLLM refuses HiSparse itself
    first).

    ## vLLM source
    `VllmConfig.__post_init__`, the HiSparse block (after "HiSparse
    currently requires NVIDIA CUDA."). Verified from vLLM's source only:
    the vllm-oracle runs on vLLM's CPU platform, where the CUDA check fires
    first.
    """

    code = "SL652"
    name = "hisparse-no-pipeline-parallel"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.30.0", "0.33.0")
    anchor = "--pipeline-parallel-size"
    partners = ("--attention-config", "--kv-transfer-config")
    requires = ("--pipeline-parallel-size",)

    def blocker(self, ctx):
        pp = pipeline_parallel_size(ctx.invocation)
        if pp.how != "flag" or pp.value <= 1 or not pp.flags:
            return None
        return pp.flags[-1], ""
