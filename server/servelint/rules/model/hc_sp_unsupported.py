"""SL348: `--enable-hc-sp` for a model without HC sequence parallelism, or with pipeline parallelism."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, related, vllm_message
from ._shared import registry_arch

_MODEL = VllmCheck("model.hc_sp_unsupported_model", "--enable-hc-sp is not supported for this model",
                   "vllm/config/model.py", whole=True)
_PP = VllmCheck("model.hc_sp_requires_pp1", "--enable-hc-sp requires PP=1", "vllm/config/model.py", whole=True)


class HcSpUnsupported(Rule):
    """`--enable-hc-sp` with tensor parallelism on a model or layout that cannot use it.

    ## What it does
    With `--enable-hc-sp` and `--tensor-parallel-size` above 1 on a CUDA or
    ROCm target, reports a model whose architecture does not support
    hyper-connection sequence parallelism (`supports_hc_sp` in the release's
    registry: only the Qwen4Exp models do), and, for one that does, a
    `--pipeline-parallel-size` other than 1.

    ## Why
    vLLM stops with "--enable-hc-sp is not supported for this model", or
    "--enable-hc-sp requires PP=1". (With a TP size of 1 the flag is
    ignored.)

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 2 --enable-hc-sp
    ```

    ## Fix
    Drop `--enable-hc-sp` for models other than Qwen4Exp; with Qwen4Exp,
    use `--pipeline-parallel-size 1`.

    ## Evidence
    The written flags (or the release's defaults), the target platform,
    and the model's config.json with one architecture, looked up in the
    release's registry. Silent with `--hf-overrides` or `--model-impl`.
    The CPU oracle stops at the platform check first ("--enable-hc-sp
    currently requires CUDA or ROCm"), so this rule has golden cases only.

    ## vLLM source
    `ModelConfig.verify_with_parallel_config`, its first checks.
    """

    code = "SL348"
    name = "hc-sp-unsupported"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_MODEL, _PP)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enable-hc-sp"
    partners = ("--tensor-parallel-size", "--pipeline-parallel-size")
    requires = ("--enable-hc-sp",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target not in ("cuda", "rocm"):
            return
        inv = ctx.invocation
        on = value_of(inv, "enable_hc_sp")
        if on.how != "flag" or on.value is not True:
            return
        tp = int_of(inv, "tensor_parallel_size")
        if not tp.known or tp.value <= 1:
            return
        arch = registry_arch(ctx)
        if arch is None or arch.supports_hc_sp is None:
            return
        rel = related(ctx, value_of(inv, "tensor_parallel_size").flags, "tensor-parallel size set by {flag}")
        rel += [r for r in [model_note(ctx)] if r is not None]
        if arch.supports_hc_sp is False:
            yield finding(ctx, on.flags[-1], vllm_message(ctx, _MODEL.key), _MODEL.key, related_to=rel)
            return
        pp = int_of(inv, "pipeline_parallel_size")
        if pp.known and pp.value != 1:
            rel = related(ctx, pp.flags, "pipeline-parallel size set by {flag}") + rel
            yield finding(ctx, on.flags[-1], vllm_message(ctx, _PP.key), _PP.key, related_to=rel)
