"""SL310: a `--quantization` value that is not a quantization method of the release."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.quantization import accepts_unknown_method, checkpoint_quantized, methods
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding


class QuantizationUnknown(Rule):
    """`--quantization` that is not a quantization method of this release.

    ## What it does
    Reports a `--quantization` / `-q` value that, lower-cased, is not one of
    the release's quantization methods. `bitsandbytes` and `gguf` are not
    methods from 0.28.0 on (bitsandbytes was one up to 0.27.1).

    Silent where a checkpoint override claims the checkpoint before the
    method list is checked, so vLLM accepts the value (every release
    0.25.0-0.33.0): `marlin` on a GPTQ checkpoint (AutoGPTQConfig), or on
    an AWQ checkpoint except on a CPU platform (AutoAWQConfig); `marlin`
    also when servelint cannot read the checkpoint; any value on a
    checkpoint that an override claims whatever `--quantization` says
    (auto-round, ModelOpt, MXFP4 on gpt-oss, fp8 on DeepSeek V4).

    ## Why
    The value is only checked while vLLM builds its config, after the model
    download: "Unknown quantization method: bogus. Must be one of ['awq',
    ...]." When the checkpoint declares its own quantization, vLLM reports
    the mismatch between the two first.

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --quantization bitsandbytes
    ```

    ## Fix
    Use one of the listed methods, or drop `--quantization` for a quantized
    checkpoint (vLLM reads its method from the checkpoint). A method that a
    vLLM plugin registers is not known to servelint: suppress the
    diagnostic for it.

    ## Evidence
    A written `--quantization` and the release's `QuantizationMethods`
    (generated from its source); the model's config.json decides whether an
    override may claim the checkpoint (without it, only `marlin` is given
    the benefit of the doubt) and whether vLLM's message is the unknown
    method or the mismatch.

    ## vLLM source
    `ModelConfig._verify_quantization`; lower-casing:
    `ModelConfig.validate_quantization_before` (vllm/config/model.py); the
    list: `QuantizationMethods`
    (vllm/model_executor/layers/quantization/__init__.py); the overrides
    that may claim the checkpoint first: see `servelint.derive.quantization`.
    """

    code = "SL310"
    vllm_checks = (VllmCheck("quantization", "Unknown quantization method: ", "vllm/config/model.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "quantization-unknown"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--quantization"
    requires = ("--hf-overrides", "--quantization")
    reads = frozenset({"quantization", "model", "hf_overrides"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        q = value_of(inv, "quantization")
        if q.how != "flag" or not isinstance(q.value, str):
            return
        value = q.value.lower()
        known = methods(ctx.version)
        if value in known:
            return
        if accepts_unknown_method(ctx, value):
            return  # an override claims the checkpoint first and replaces the value
        message = f"Unknown quantization method: {value}. Must be one of {known}."
        # A quantized checkpoint gets the mismatch message first.
        vllm_message = message if checkpoint_quantized(ctx) is False else None
        close = [m for m in known if value.replace("-", "_") in m.replace("-", "_")]
        note = f"did you mean {' or '.join(close[:3])}?" if close else f"vLLM {ctx.version} knows: {', '.join(known)}"
        yield finding(ctx, q.flags[-1], vllm_message, "quantization",
                      message=f"Unknown quantization method: {value}", note=note)
