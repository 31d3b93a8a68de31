"""SL341: `--mm-tensor-ipc torch_shm` with more than one rank."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import file_value, int_of, written
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import builds_multimodal_config, model_related

_CHECK = VllmCheck("multimodal.torch_shm_single_rank", "mm_tensor_ipc='torch_shm' is not supported with",
                   "vllm/config/model.py")

# The sizes ``ParallelConfig.world_size_across_dp`` multiplies.
_SIZES = ("tensor_parallel_size", "pipeline_parallel_size", "prefill_context_parallel_size", "data_parallel_size")


class MmTorchShmSingleRank(Rule):
    """`--mm-tensor-ipc torch_shm` with tensor, pipeline or data parallelism.

    ## What it does
    Reports `--mm-tensor-ipc torch_shm` for a multimodal model when the
    launch runs on more than one rank: `--tensor-parallel-size`,
    `--pipeline-parallel-size`, `--prefill-context-parallel-size` or
    `--data-parallel-size` above 1.

    ## Why
    `torch_shm` hands multimodal tensors to rank 0 through a single
    shared-memory queue: the API servers cannot know which engine of a
    data-parallel deployment gets a request, and the tensors are not
    broadcast to the other TP ranks. vLLM stops with
    "mm_tensor_ipc='torch_shm' is not supported with data_parallel_size > 1
    or tensor_parallel_size > 1 or pipeline_parallel_size > 1."

    ## Example
    ```sh
    vllm serve Qwen/Qwen2.5-VL-7B-Instruct --mm-tensor-ipc torch_shm -tp 2
    ```

    ## Fix
    Use the default `--mm-tensor-ipc direct_rpc`, or serve on a single rank.

    ## Evidence
    The flags as written (or the release's defaults) and the model's
    architecture, a multimodal one in the release's registry.

    ## vLLM source
    `ModelConfig.verify_with_parallel_config`, its last check.
    """

    code = "SL341"
    name = "mm-torch-shm-single-rank"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--mm-tensor-ipc"
    partners = ("--tensor-parallel-size", "--pipeline-parallel-size", "--data-parallel-size")
    requires = ("--mm-tensor-ipc",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        ipc = file_value(inv, "mm_tensor_ipc")
        if ipc.how != "flag" or ipc.value != "torch_shm":
            return
        world = 1
        rel = []
        for dest in _SIZES:
            if dest not in inv.knowledge.by_dest:
                continue
            size = int_of(inv, dest)
            if not size.known or size.value < 1:
                return
            world *= size.value
            if size.value > 1:
                rel += related(ctx, written(inv, dest), "{flag} runs more than one rank")
        if world <= 1 or not builds_multimodal_config(ctx):
            return
        yield finding(ctx, ipc.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key, related_to=rel + model_related(ctx))
