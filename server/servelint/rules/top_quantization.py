"""`--quantization` values vLLM does not know.

``--quantization`` accepts any string on the command line; ``ModelConfig``
lower-cases it and checks it against ``QUANTIZATION_METHODS`` (the
``QuantizationMethods`` Literal of vllm/model_executor/layers/quantization)
while building the config.
"""

from __future__ import annotations

import os
from typing import Iterable

from ..diagnostics import Category, Severity
from ..knowledge.validators import VllmCheck
from . import top_facts as tf
from . import vllm_state as st
from .base import Context, Finding, Rule, version_key

# ``QuantizationMethods`` in vllm/model_executor/layers/quantization/__init__.py,
# in its order (the message prints the list): 0.28.0-0.33.0 are identical;
# 0.26.0-0.27.1 also have "bitsandbytes" (after "compressed-tensors"); 0.25.0
# has "bitsandbytes" and not "nvfp4_per_token".
_METHODS_028 = [
    "awq", "auto_awq", "fp8", "fbgemm_fp8", "fp_quant", "modelopt", "modelopt_fp4", "modelopt_mxfp8",
    "modelopt_mixed", "auto_gptq", "gptq", "gptq_marlin", "awq_marlin", "humming", "compressed-tensors",
    "experts_int8", "quark", "moe_wna16", "torchao", "inc", "mxfp4", "gpt_oss_mxfp4", "deepseek_v4_fp8",
    "online", "fp8_per_tensor", "fp8_per_block", "fp8_per_channel", "int8_per_channel_weight_only",
    "nvfp4_per_token", "mxfp8",
]


def methods(version: str) -> list[str]:
    out = list(_METHODS_028)
    if version_key(version) < (0, 28, 0):
        out.insert(out.index("compressed-tensors") + 1, "bitsandbytes")
    if version_key(version) < (0, 26, 0):
        out.remove("nvfp4_per_token")
    return out


def _checkpoint_quantized(ctx: Context) -> bool | None:
    """Whether the checkpoint declares its own quantization (vLLM then
    compares the two first and reports a mismatch instead)."""
    cfg = tf.model_config(ctx)
    if cfg is None:
        return None
    text = tf.text_config(ctx) or {}
    if any(c.get(k) for c in (cfg, text) for k in ("quantization_config", "compression_config")):
        return True
    model = ctx.model
    if model is not None and model.path:
        if os.path.exists(os.path.join(os.path.dirname(model.path), "hf_quant_config.json")):
            return True
    return False


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

    ## vLLM source
    `ModelConfig._verify_quantization`, vllm/config/model.py: 0.25.0:1100,
    0.26.0:1118, 0.27.x:1203, 0.28.0:1283, 0.29.0:1329, 0.30.0:1342,
    0.31.0:1420, 0.32.0:1454, 0.33.0:1467; lower-casing:
    `ModelConfig.validate_quantization_before` (config/model.py 0.28.0:907,
    0.33.0:1054); the list: `QuantizationMethods`
    (model_executor/layers/quantization/__init__.py). The overrides:
    `AutoGPTQConfig.override_quantization_method` (auto_gptq.py
    0.25.0-0.29.0:219, 0.30.0:216, 0.31.0-0.33.0:214) and
    `AutoAWQConfig.override_quantization_method` (auto_awq.py
    0.25.0-0.30.0:260, 0.31.0-0.33.0:263) accept gptq/awq, their `_marlin`
    and `auto_` forms and `marlin`; the others are listed in
    rules/top_quant_checkpoint.py (`OVERRIDE_USER_VALUES`) with file:line
    per release.
    """

    code = "SL310"
    vllm_checks = (VllmCheck("quantization", "Unknown quantization method: ", "vllm/config/model.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "quantization-unknown"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--quantization"
    reads = frozenset({"quantization", "model", "hf_overrides"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        q = st.value_of(inv, "quantization")
        if q.how != "flag" or not isinstance(q.value, str):
            return
        value = q.value.lower()
        known = methods(ctx.version)
        if value in known:
            return
        # An override may claim the checkpoint first and replace the value
        # (rules/top_quant_checkpoint.py holds the facts; imported here, as
        # that module imports this one).
        from .top_quant_checkpoint import accepts_unknown_method

        if accepts_unknown_method(ctx, value):
            return
        message = f"Unknown quantization method: {value}. Must be one of {known}."
        # A quantized checkpoint gets the mismatch message first.
        vllm_message = message if _checkpoint_quantized(ctx) is False else None
        close = [m for m in known if value.replace("-", "_") in m.replace("-", "_")]
        note = f"did you mean {' or '.join(close[:3])}?" if close else f"vLLM {ctx.version} knows: {', '.join(known)}"
        yield tf.finding(ctx, q.flags[-1], vllm_message, "quantization",
                         message=f"Unknown quantization method: {value}", note=note)
