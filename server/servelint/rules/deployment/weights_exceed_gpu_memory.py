"""SL805: the model's weights do not fit in the GPU memory vLLM may use."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Related, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, vllm_source
from ._shared import not_vllm_argv, fit, gpu_related, on_model, where

# In kv_cache_utils.py up to 0.32.0, kv_cache_planning.py from 0.33.0.
_CHECK = VllmCheck("deployment.no_cache_memory", "No available memory for the cache blocks. ")


class WeightsExceedGpuMemory(Rule):
    """The model's weights need more memory per GPU than vLLM may use there.

    ## What it does
    Estimates the weights one GPU holds, from the checkpoint's config.json
    (parameters of a dense, MoE or MLA model × bytes per parameter for its
    dtype or quantization ÷ tensor × pipeline parallel size), and compares
    them with `--gpu-memory-utilization` × the memory of the GPU the file
    deploys the launch on. The message shows the numbers; it is an
    estimate, a lower bound of the weights (see `derive/memory.py` for its
    error band).

    ## Why
    The weights are loaded before anything else. If they do not fit in the
    GPU, loading runs out of memory; if they fit in the GPU but not in the
    share vLLM may use, nothing is left for the KV cache and vLLM stops
    with "No available memory for the cache blocks. Try increasing
    `gpu_memory_utilization` when initializing the engine."

    ## Example
    ```yaml
    resources:
      accelerators: A100-80GB:1
    run: |
      vllm serve ./llama-3.1-70b
    ```

    ## Fix
    Spread the model over more GPUs (`--tensor-parallel-size` with as
    many GPUs), use larger GPUs, or a quantized checkpoint.

    ## Evidence
    The model's config.json (a local directory or the Hugging Face cache;
    a model type whose layers servelint knows), its dtype or a quantization
    method whose bits servelint knows, the parallel sizes, and the memory
    of every GPU the file allows (the largest counts), from the GPU table or
    a MIG profile or memory label. Silent when any of them is not known.

    ## vLLM source
    `_check_enough_kv_cache_memory` (the message vLLM prints when no memory
    is left after the weights).
    """

    code = "SL805"
    name = "weights-exceed-gpu-memory"
    requires = ("@deployment", "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")
    category = Category.DEPLOYMENT
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    reads = frozenset({"model", "hf_overrides", "dtype", "quantization", "tensor_parallel_size",
                       "pipeline_parallel_size", "prefill_context_parallel_size", "gpu_memory_utilization",
                       "cpu_offload_gb", "deployment", "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
                       "ROCR_VISIBLE_DEVICES"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not_vllm_argv(ctx):
            return
        f = fit(ctx)
        if f is None or f.weights <= f.budget:
            return
        span, path = on_model(ctx)
        message = (f"estimated: {f.weights_text()}, more than {f.budget_text()}: loading runs out of memory or "
                   f"vLLM stops with \"No available memory for the cache blocks\"")
        rel: list[Related] = gpu_related(ctx, [f.machine], lambda m: f"{m.label()}, {f.memory_gib:g} GiB")
        if f.util_flag is not None:
            u_span, u_path, _ = where(ctx, f.util_flag)
            rel.append(Related(u_path or ctx.path, u_span, f"--gpu-memory-utilization {f.util:g}"))
        yield Finding(span, message, related=rel, path=path, data={"vllm_source": vllm_source(ctx, _CHECK.key)})
