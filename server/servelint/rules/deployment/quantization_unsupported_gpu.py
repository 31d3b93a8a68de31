"""SL804: a quantization method below its minimum GPU capability."""

from __future__ import annotations

from typing import Iterable

from ...derive.deployment import machines
from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.quant_capability import min_capability
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, vllm_source
from ...derive.quantization import resolved_method
from ._shared import not_vllm_argv, gpu_related, gpus_text, on_model, vllm_text, where

_CHECK = VllmCheck(
    "deployment.quant_capability", "is not supported for the current GPU. Minimum capability: {}.",
    "vllm/config/vllm.py",
)


class QuantizationUnsupportedGpu(Rule):
    """A quantization method whose minimum compute capability the GPU lacks.

    ## What it does
    Reports the launch's quantization method (`--quantization`, or the
    method of the checkpoint's `quantization_config`) when every GPU its
    file deploys it on has a compute capability below the method's own
    minimum in this release: AWQ needs 7.5 (not a V100), FP8 7.5, MXFP4
    and experts_int8 8.0, and so on, as each config class's
    `get_min_capability` returns.

    ## Why
    `VllmConfig` builds the quantization config before any weight loads
    and stops: "The quantization method awq is not supported for the
    current GPU. Minimum capability: 75. Current capability: 70."

    ## Example
    ```yaml
    resources:
      accelerators: V100:1
    run: |
      vllm serve Qwen/Qwen2.5-7B-Instruct-AWQ --quantization awq
    ```

    ## Fix
    Run on a GPU with at least the method's capability, or serve a
    checkpoint quantized for this GPU (GPTQ runs from 6.0).

    ## Evidence
    The method vLLM ends up with (a written `--quantization`, or the
    checkpoint's config.json and vLLM's override rules), its minimum from
    the generated table (`knowledge/data/quant_capability.json`, from each
    release's `get_min_capability`; methods whose minimum depends on the
    checkpoint's scheme are not in it), and a GPU type the table knows for
    every machine. vLLM has no capability rule for the KV cache dtype, so
    neither has servelint.

    ## vLLM source
    `VllmConfig._get_quantization_config`, vllm/config/vllm.py.
    """

    code = "SL804"
    name = "quantization-unsupported-gpu"
    category = Category.DEPLOYMENT
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--quantization"
    requires = ("@deployment", "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")
    reads = frozenset({"quantization", "deployment", "model", "hf_overrides", "CUDA_VISIBLE_DEVICES",
                       "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not_vllm_argv(ctx):
            return
        if ctx.target != "cuda":
            return
        ms = machines(ctx)
        if not ms or any(m.capability is None or m.vendor != "nvidia" for m in ms):
            return
        method = resolved_method(ctx)
        if method is None:
            return
        need = min_capability(method, ctx.version)
        if need is None:
            return
        caps = {m.capability[0] * 10 + m.capability[1] for m in ms}
        if any(c >= need.minimum for c in caps):
            return
        q = value_of(ctx.invocation, "quantization")
        if q.how == "flag" and q.flags:
            span, path, canonical = where(ctx, q.flags[-1])
        else:
            (span, path), canonical = on_model(ctx), None
        vllm_message = vllm_text(ctx, _CHECK.key, method, need.minimum, caps.copy().pop()) if len(caps) == 1 else None
        current = " or ".join(f"{c // 10}.{c % 10}" for c in sorted(caps))
        message = (f"quantization {method} needs compute capability {need.text} (vLLM {ctx.version}), "
                   f"{gpus_text(ms)} has {current}: vLLM stops with \"The quantization method {method} is not "
                   f"supported for the current GPU\"")
        rel = gpu_related(ctx, ms, lambda m: f"{m.label()}, compute capability {m.gpu.capability_text()}")
        yield Finding(span, message, flag=canonical, related=rel, vllm_message=vllm_message, path=path,
                      data={"vllm_source": vllm_source(ctx, _CHECK.key), "min_capability_at": need.at})
