"""SL802: `--dtype bfloat16` on a GPU without bfloat16."""

from __future__ import annotations

from typing import Iterable

from ...derive.deployment import machines
from ...derive.flags import value_of
from ...derive.platform import float16_unsupported
from ...diagnostics import Applicability, Category, Fix, Severity
from ...edits import set_value
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, vllm_source
from ._shared import not_vllm_argv, gpu_related, gpus_text, where

_CHECK = VllmCheck(
    "deployment.bfloat16", "Bfloat16 is only supported on GPUs with compute capability of at least 8.0.",
    "vllm/platforms/cuda.py",
)


class Bfloat16UnsupportedGpu(Rule):
    """`--dtype bfloat16` on a GPU whose compute capability is below 8.0.

    ## What it does
    Reports `--dtype bfloat16` when every GPU the launch's file deploys it
    on is an NVIDIA GPU of compute capability below 8.0 (T4, V100, P100,
    the Turing Quadros...), from servelint's GPU table.

    ## Why
    The worker checks the dtype on the device before it loads anything and
    stops: "Bfloat16 is only supported on GPUs with compute capability of
    at least 8.0. Your Tesla T4 GPU has compute capability 7.5. You can use
    float16 instead by explicitly setting the `dtype` flag in CLI, for
    example: --dtype=half."

    ## Example
    ```yaml
    nodeSelector:
      cloud.google.com/gke-accelerator: nvidia-tesla-t4
    containers:
      - name: vllm
        image: vllm/vllm-openai:v0.33.0
        args: ["Qwen/Qwen3-8B", "--dtype", "bfloat16"]
    ```

    ## Fix
    Use `--dtype half` (float16), or `float32` for the models that refuse
    float16 (Gemma 2 and 3, GLM-4); or schedule the pod on a GPU of
    capability 8.0 or later.

    ## Fix safety
    Unsafe: float16 has a smaller range than bfloat16; a model trained in
    bfloat16 may overflow in it.

    ## Evidence
    A written `--dtype bfloat16` and a GPU type the file names (a node
    selector or required node affinity on `nvidia.com/gpu.product`,
    `cloud.google.com/gke-accelerator`, Karpenter's GPU name or an instance
    type; a SkyPilot accelerator; a Slurm gres type) that the table knows,
    for every machine the file allows. `--dtype auto` on such a GPU falls
    back to float16 instead (SL803).

    ## vLLM source
    `CudaPlatform.check_if_supports_dtype`, called by `Worker.init_device`
    (vllm/v1/worker/gpu_worker.py).
    """

    code = "SL802"
    name = "bfloat16-unsupported-gpu"
    category = Category.DEPLOYMENT
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--dtype"
    requires = ("@deployment", "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")
    fixes = frozenset({Applicability.UNSAFE})
    reads = frozenset({"dtype", "deployment", "model", "hf_overrides", "CUDA_VISIBLE_DEVICES",
                       "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not_vllm_argv(ctx):
            return
        if ctx.target != "cuda":
            return
        d = value_of(ctx.invocation, "dtype")
        if d.how != "flag" or not isinstance(d.value, str) or d.value.lower() != "bfloat16":
            return
        ms = machines(ctx)
        caps = [m.capability for m in ms]
        if not ms or any(c is None or c >= (8, 0) for c in caps) or any(m.vendor != "nvidia" for m in ms):
            return
        flag = d.flags[-1]
        span, path, canonical = where(ctx, flag)
        shown_caps = sorted({f"{c[0]}.{c[1]}" for c in caps})
        message = (f"--dtype bfloat16 on {gpus_text(ms)} (compute capability {' or '.join(shown_caps)}): "
                   f"vLLM stops with \"Bfloat16 is only supported on GPUs with compute capability of at least 8.0\"")
        fixes = []
        no_fp16 = float16_unsupported(ctx)
        value = "float32" if no_fp16 else "half"
        edits = set_value(ctx.invocation.raw, ctx.text_of, ctx.path, flag, value) if no_fp16 is not None else None
        if edits:
            fixes.append(Fix(f"Use --dtype {value}", edits, Applicability.UNSAFE))
        rel = gpu_related(ctx, ms, lambda m: f"{m.label()}, compute capability {m.gpu.capability_text()}")
        yield Finding(span, message, flag=canonical, related=rel, fixes=fixes, path=path,
                      data={"vllm_source": vllm_source(ctx, _CHECK.key)})
