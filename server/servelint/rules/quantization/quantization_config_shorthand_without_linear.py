"""SL384: a MoE-only online shorthand as `--quantization-config` `linear`."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import name_problems, quant_config, type_error

_CHECK = VllmCheck("quant_config.shorthand_missing_spec", "online shorthand {} does not define a {} spec",
                   "vllm/config/quantization.py")


class QuantizationConfigShorthandWithoutLinear(Rule):
    """`--quantization-config` `linear` set to a shorthand that only quantizes MoE layers.

    ## What it does
    Reports `"linear": "int8_per_channel_weight_only"` or `"linear":
    "nvfp4_per_token"` in `--quantization-config`: those online shorthands
    define only a MoE spec.

    ## Why
    A shorthand under `linear` stands for its linear-layer spec, which
    these do not have. argparse converts the option into
    `QuantizationConfigArgs` and stops: "argument --quantization-config: 1
    validation error for QuantizationConfigArgs ... online shorthand
    'nvfp4_per_token' does not define a linear spec".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-30B-A3B --quantization-config '{"linear": "nvfp4_per_token"}'
    ```

    ## Fix
    Put it under `moe`, or use a shorthand with a linear spec
    (`fp8_per_tensor`, `fp8_per_block`, `fp8_per_channel`, `mxfp8`,
    `mxfp4`).

    ## Evidence
    The JSON as written (dotted keys merged) and the release's shorthands
    (`derive.quant_config`).

    ## vLLM source
    `QuantizationConfigArgs._coerce_spec`.
    """

    code = "SL384"
    name = "quantization-config-shorthand-without-linear"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--quantization-config"
    requires = ("--quantization-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        cfg = quant_config(ctx)
        if cfg is None or type_error(ctx, cfg.value) is not None:
            return  # argparse reports only the TypeError (SL383, SL385)
        for kind, what in name_problems(ctx, "linear", cfg.value.get("linear")) or ():
            if kind == "no_spec":
                yield finding(ctx, cfg.flags[-1], vllm_message(ctx, _CHECK.key, repr(what), "linear"), _CHECK.key)
