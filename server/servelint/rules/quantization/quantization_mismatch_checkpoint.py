"""SL325: `--quantization` that contradicts the checkpoint's own quantization."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import written
from ...derive.quantization import checkpoint_quant, may_be_claimed, methods, quantization_flag
from ...diagnostics import Applicability, Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, model_note, path_of, removal_fix, vllm_source


class QuantizationMismatchCheckpoint(Rule):
    """`--quantization` that contradicts the checkpoint's own quantization.

    ## What it does
    Reports `--quantization X` when the model's config.json declares
    another method (`quantization_config.quant_method`, or a
    `compression_config` for compressed-tensors) and no vLLM override maps
    the pair to one method. Accepted pairs stay silent: a GPTQ checkpoint
    with `gptq`, `gptq_marlin` or `auto_gptq`; an AWQ checkpoint with `awq`,
    `awq_marlin` or `auto_awq` (on GPUs); `moe_wna16`, `humming` and
    `deepseek_v4_fp8`, which may claim a checkpoint; and ModelOpt,
    auto-round and quark checkpoints, gpt-oss MXFP4 and DeepSeek V4 models.
    A value that is not a method at all is `quantization-unknown`.

    ## Why
    vLLM reads the method from the checkpoint and stops while building its
    config: "Quantization method specified in the model config (fp8) does
    not match the quantization method specified in the `quantization`
    argument (gptq)."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B-FP8 --quantization gptq
    ```

    ## Fix
    Drop `--quantization` (vLLM detects the checkpoint's method), or serve
    a checkpoint quantized with the method you want.

    ## Fix safety
    Unsafe: removing `--quantization` lets vLLM use the checkpoint's own method,
    which may not be the one you wanted.

    ## Evidence
    A written `--quantization` that is one of the release's methods and the
    model's config.json (no `--hf-overrides`): its `quantization_config` or
    `compression_config`. Silent without a config.json, for a ModelOpt
    `hf_quant_config.json` beside it, and wherever an override may map the
    pair to one method.

    ## vLLM source
    `ModelConfig._verify_quantization` (the method is identical in every
    release); the overrides it consults: see `servelint.derive.quantization`.
    Checked against vLLM's own verdicts (tests/conformance/top25, cases
    `qmis_*`).
    """

    code = "SL325"
    fixes = frozenset({Applicability.UNSAFE})
    vllm_checks = (VllmCheck("quant_mismatch", "Quantization method specified in the model config ", "vllm/config/model.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "quantization-mismatch-checkpoint"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--quantization"
    requires = ("--hf-overrides", "--quantization")
    reads = frozenset({"quantization", "model", "hf_overrides"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        q = quantization_flag(ctx)
        if q is None:
            return
        user = q.value.lower()
        if user not in methods(ctx.version):
            return  # quantization-unknown
        ck = checkpoint_quant(ctx)
        if ck is None or ck.method is None or ck.method == "" or ck.method == user:
            return
        if may_be_claimed(ck, user):
            return
        message = (
            f"Quantization method specified in the model config ({ck.method}) does not match the "
            f"quantization method specified in the `quantization` argument ({user})."
        )
        flag = q.flags[-1]
        rel = [r for r in [model_note(ctx)] if r is not None]
        fix = removal_fix(ctx, list(written(ctx.invocation, "quantization")), "Remove --quantization")
        yield Finding(
            flag.name_span,
            f"the checkpoint is quantized with {ck.method}, not {user}: vLLM refuses "
            f"--quantization {user} for it (drop the flag: vLLM reads the method from the checkpoint)",
            flag=flag.canonical, related=rel, fixes=[fix] if fix else [], vllm_message=message,
            path=path_of(ctx, flag),
            data={"vllm_source": vllm_source(ctx, "quant_mismatch")},
        )
