"""SL326: a `--dtype` the quantization method cannot run activations in."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.model import DTYPE_NAMES, arch_facts
from ...derive.quantization import ACT_DTYPES, quantization_flag, resolved_method
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, model_note, path_of, related, vllm_source


class QuantActDtypeUnsupported(Rule):
    """`--dtype` that the quantization method cannot run activations in.

    ## What it does
    Reports a written `--dtype` (`float32`, `float16`/`half`, `bfloat16`)
    that the launch's quantization method does not support: `--dtype
    float32` with fp8, GPTQ, AWQ, FBGEMM fp8, ModelOpt, MXFP4...
    checkpoints or `--quantization fp8`; `--dtype float16` with MXFP4
    (gpt-oss), fp_quant and MXFP8, which run in bfloat16 only. The method
    is `--quantization`, or the checkpoint's own one (GPTQ and AWQ
    checkpoints run as `auto_gptq` / `auto_awq`). Silent for `--dtype auto`,
    for methods that also take float32 (compressed-tensors, torchao,
    bitsandbytes), the online shorthands (`fp8_per_tensor`...), and models
    whose config hooks may change the dtype.

    ## Why
    vLLM stops while building its config: "torch.float32 is not supported
    for quantization method fp8. Supported dtypes: [torch.bfloat16,
    torch.float16]".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B-FP8 --dtype float32
    ```

    ## Fix
    Use `--dtype auto` or one of the listed dtypes.

    ## Evidence
    A written `--dtype`, and the quantization method: a written
    `--quantization`, or the checkpoint's own from its config.json (silent
    when the method is not certain, and for models whose config hooks may
    change the dtype).

    ## vLLM source
    `VllmConfig._get_quantization_config` (the message); each method's
    `get_supported_act_dtypes` (vllm/model_executor/layers/quantization/, the
    same lists in every release). On a GPU below the method's minimum
    compute capability vLLM reports that first. Checked against vLLM's own
    verdicts (tests/conformance/top25, cases `qact_*`).
    """

    code = "SL326"
    vllm_checks = (VllmCheck("quant_act_dtype", "is not supported for quantization ", "vllm/config/vllm.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "quant-act-dtype-unsupported"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--dtype"
    partners = ("--quantization",)
    requires = ("--dtype", "--hf-overrides", "--quantization")
    reads = frozenset({"dtype", "quantization", "model", "hf_overrides"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        dtype = value_of(inv, "dtype")
        if dtype.how != "flag" or not isinstance(dtype.value, str):
            return
        name = DTYPE_NAMES.get(dtype.value.lower())
        if name is None:
            return
        arch = arch_facts(ctx)
        if arch is None or arch.models_config_map:
            return
        method = resolved_method(ctx)
        if method is None or method not in ACT_DTYPES:
            return
        supported = ACT_DTYPES[method]
        if name in supported:
            return
        listing = ", ".join(f"torch.{d}" for d in supported)
        message = (
            f"torch.{name} is not supported for quantization method {method}. "
            f"Supported dtypes: [{listing}]"
        )
        q = quantization_flag(ctx)
        how = f"--quantization {q.value}" if q is not None else "the checkpoint's quantization_config"
        rel = related(ctx, q.flags[-1:], "quantization method set by {flag}") if q is not None else [
            r for r in [model_note(ctx)] if r is not None
        ]
        flag = dtype.flags[-1]
        yield Finding(
            flag.name_span,
            f"{method} quantization runs activations in {' or '.join(supported)}, not {name} "
            f"(method from {how})",
            flag=flag.canonical, related=rel, vllm_message=message, path=path_of(ctx, flag),
            data={"vllm_source": vllm_source(ctx, "quant_act_dtype")},
        )
