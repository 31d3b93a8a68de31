"""SL803: `--dtype auto` falls back from the checkpoint's dtype on this GPU."""

from __future__ import annotations

from typing import Iterable

from ...derive.deployment import machines
from ...derive.platform import dtype_on
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, vllm_source
from ._shared import not_vllm_argv, gpu_related, gpus_text, on_model, where

_CHECK = VllmCheck(
    "deployment.dtype_fallback", "doesn't support %s. Falling back to %s for compatibility.",
    "vllm/config/model.py",
)


class DtypeFallsBackOnGpu(Rule):
    """`--dtype auto` with a checkpoint dtype the GPU does not have.

    ## What it does
    Says, at information level, when vLLM will run the model in another
    dtype than its checkpoint's: a bfloat16 checkpoint with `--dtype auto`
    (the default) on GPUs of compute capability below 8.0 runs in float16
    (float32 for the models that refuse float16).

    ## Why
    It is not an error: `_resolve_auto_dtype` picks the first dtype the
    GPU supports and logs "Your device 'Tesla T4' (with compute capability
    7.5) doesn't support torch.bfloat16. Falling back to torch.float16 for
    compatibility." A model trained in bfloat16 may lose accuracy or
    overflow in float16; the user may want to know before it serves.

    ## Example
    ```sh
    #SBATCH --gres=gpu:v100:1
    vllm serve Qwen/Qwen3-8B
    ```

    ## Fix
    Nothing is required. To choose yourself, write `--dtype half` (or
    `float32`), or run on a GPU of capability 8.0 or later.

    ## Evidence
    The checkpoint's dtype from its config.json (`dtype`/`torch_dtype`),
    `--dtype` auto (written or default), and a GPU type the table knows for
    every machine the file allows, all falling back the same way.

    ## vLLM source
    `_resolve_auto_dtype`, vllm/config/model.py, with the platform's
    `supported_dtypes` (vllm/platforms/cuda.py).
    """

    code = "SL803"
    name = "dtype-falls-back-on-gpu"
    category = Category.DEPLOYMENT
    severity = Severity.INFORMATION
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--dtype"
    requires = ("@deployment", "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")
    reads = frozenset({"dtype", "deployment", "model", "hf_overrides", "runner", "convert",
                       "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not_vllm_argv(ctx):
            return
        if ctx.target != "cuda":
            return
        ms = machines(ctx)
        if not ms or any(m.capability is None or m.vendor != "nvidia" for m in ms):
            return
        results = [dtype_on(ctx, m.capability) for m in ms]
        got = results[0]
        if any(r != got for r in results[1:]):
            return
        if got is None or got.how != "auto" or not got.fallback:
            return
        flag = got.flags[-1] if got.flags else None
        if flag is not None:
            span, path, canonical = where(ctx, flag)
        else:
            (span, path), canonical = on_model(ctx), None
        message = (f"{gpus_text(ms)} (compute capability {ms[0].capability[0]}.{ms[0].capability[1]}) has no "
                   f"{got.checkpoint}: with --dtype auto vLLM runs this {got.checkpoint} checkpoint in {got.value}")
        rel = gpu_related(ctx, ms, lambda m: f"{m.label()}, compute capability {m.gpu.capability_text()}")
        yield Finding(span, message, flag=canonical, related=rel, path=path,
                      data={"vllm_source": vllm_source(ctx, _CHECK.key)})
