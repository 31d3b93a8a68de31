"""SL806: the KV cache of one `--max-model-len` sequence does not fit."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import written
from ...derive.memory import kv_per_token
from ...derive.model import max_model_len
from ...diagnostics import Category, Related, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, vllm_source
from ._shared import not_vllm_argv, fit, gib, gpu_related, on_model, where, written_int

# The message moved from kv_cache_utils.py to kv_cache_planning.py in
# 0.33.0: the needle is one literal piece, looked for in every file.
_CHECK = VllmCheck("deployment.kv_cache_fit", "cache is needed, which is larger than the available KV cache")


class KvCacheExceedsGpuMemory(Rule):
    """One sequence of `--max-model-len` tokens needs more KV cache than is left.

    ## What it does
    Estimates the KV cache one sequence of the model's maximum length
    needs on one GPU (layers × KV heads per GPU × head size × 2 × bytes per
    element, or MLA's one latent per layer; from config.json and
    `--kv-cache-dtype`) and compares it with what is left of
    `--gpu-memory-utilization` × the GPU's memory after the weights
    (SL805's estimate). The message shows both and the longest length that
    could fit; it is an estimate that leaves out what vLLM also reserves
    (activations, CUDA graphs), so the real room is smaller still.

    ## Why
    After loading the weights and profiling, vLLM checks that one request
    of the maximum length fits and stops: "To serve at least one request
    with the model's max seq len (131072), (16.0 GiB KV cache is needed,
    which is larger than the available KV cache memory (9.5 GiB). Based
    on the available memory, the estimated maximum model length is 77824.
    Try increasing `gpu_memory_utilization` or decreasing `max_model_len`
    ..."

    ## Example
    ```yaml
    resources:
      limits:
        nvidia.com/gpu: 1
    nodeSelector:
      cloud.google.com/gke-accelerator: nvidia-l4
    args: ["./llama-3.1-8b", "--max-model-len", "131072"]
    ```

    ## Fix
    Lower `--max-model-len` (the message says to about what), use an
    FP8 KV cache (`--kv-cache-dtype fp8`), more GPUs or larger ones.

    ## Evidence
    What SL805 needs, and the maximum length: a written `--max-model-len`
    or the one vLLM derives from config.json. Silent for sliding-window,
    hybrid and attention-free models, with `--kv-cache-memory-bytes`,
    `--num-gpu-blocks-override` or decode context parallelism, and when
    the weights alone do not fit (SL805 says so).

    ## vLLM source
    `_check_enough_kv_cache_memory`, vllm/v1/core/kv_cache_planning.py
    (kv_cache_utils.py in earlier releases); the page sizes of
    vllm/v1/kv_cache_interface.py.
    """

    code = "SL806"
    name = "kv-cache-exceeds-gpu-memory"
    category = Category.DEPLOYMENT
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--max-model-len"
    requires = ("@deployment", "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")
    reads = frozenset({"model", "hf_overrides", "dtype", "quantization", "tensor_parallel_size",
                       "pipeline_parallel_size", "prefill_context_parallel_size", "gpu_memory_utilization",
                       "cpu_offload_gb", "kv_cache_dtype", "max_model_len", "disable_sliding_window",
                       "kv_cache_memory_bytes", "num_gpu_blocks_override", "decode_context_parallel_size",
                       "runner", "convert", "deployment", "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
                       "ROCR_VISIBLE_DEVICES"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not_vllm_argv(ctx):
            return
        inv = ctx.invocation
        if any(written(inv, d) for d in ("kv_cache_memory_bytes", "num_gpu_blocks_override")):
            return
        dcp, _ = written_int(ctx, "decode_context_parallel_size")
        if dcp is None or dcp != 1:
            return
        f = fit(ctx)
        if f is None or f.weights >= f.budget:
            return
        per_token = kv_per_token(ctx, f.sizes.tp, f.sizes.pp, f.dtype)
        length = max_model_len(ctx)
        if per_token is None or length is None:
            return
        need = per_token.bytes * length.value
        left = f.budget - f.weights
        if need <= left:
            return
        if length.how == "flag" and length.flags:
            span, path, canonical = where(ctx, length.flags[-1])
            said = f"--max-model-len {length.value}"
        else:
            (span, path), canonical = on_model(ctx), None
            said = f"the model's maximum length {length.value}"
        terms = (f"{per_token.layers} layers × latent {per_token.head_size}" if per_token.mla else
                 f"{per_token.layers} layers × {per_token.heads} KV heads × {per_token.head_size} × 2")
        longest = int(left // per_token.bytes)
        message = (f"estimated: one sequence of {said} needs {gib(need)} of KV cache per GPU "
                   f"({terms} × {per_token.dtype_bytes} bytes = {per_token.bytes:,} bytes per token), but at most "
                   f"{gib(left)} is left after {f.weights_text()} of {f.budget_text()}; "
                   f"about {longest:,} tokens would fit")
        rel: list[Related] = gpu_related(ctx, [f.machine], lambda m: f"{m.label()}, {f.memory_gib:g} GiB")
        if f.util_flag is not None:
            u_span, u_path, _ = where(ctx, f.util_flag)
            rel.append(Related(u_path or ctx.path, u_span, f"--gpu-memory-utilization {f.util:g}"))
        yield Finding(span, message, flag=canonical, related=rel, path=path,
                      data={"vllm_source": vllm_source(ctx, _CHECK.key), "kv_bytes_per_token": per_token.bytes,
                            "estimated_max_len": longest})
