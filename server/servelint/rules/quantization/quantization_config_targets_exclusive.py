"""SL386: `--quantization-config` `targets` together with `linear`/`moe`."""

from __future__ import annotations

from typing import Iterable

from ...derive.quant_config import has_targets
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding
from ._shared import fields_valid, quant_config

_CHECK = VllmCheck("quant_config.targets_exclusive",
                   "quantization_config.targets is mutually exclusive with quantization_config.linear/moe",
                   "vllm/config/quantization.py")


class QuantizationConfigTargetsExclusive(Rule):
    """`--quantization-config` with both `targets` and `linear` or `moe`.

    ## What it does
    Reports a `--quantization-config` that sets `targets` (per-layer
    overrides) and also `linear` or `moe`.

    ## Why
    With `targets`, a layer that matches no pattern stays unquantized;
    `linear`/`moe` would quantize every layer of a kind. vLLM refuses the
    mix while argparse converts the option: "argument
    --quantization-config: 1 validation error for QuantizationConfigArgs
    ... quantization_config.targets is mutually exclusive with
    quantization_config.linear/moe, got targets=..., linear=..., moe=...".

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct \
      --quantization-config '{"targets": {"re:.*proj": "fp8_per_tensor"}, "linear": "fp8_per_tensor"}'
    ```

    ## Fix
    Keep `targets` alone (add a pattern for the layers `linear`/`moe` were
    for), or drop `targets`.

    ## Evidence
    The JSON as written (dotted keys merged), from 0.30.0. The rule reports
    only when every field passes its own check (SL383-SL385 report the
    others, which vLLM raises first). servelint words the message: vLLM's
    prints the specs by their key names.

    ## vLLM source
    `QuantizationConfigArgs._validate_targets_exclusivity`.
    """

    code = "SL386"
    name = "quantization-config-targets-exclusive"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--quantization-config"
    requires = ("--quantization-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        cfg = quant_config(ctx)
        if cfg is None or not has_targets(ctx.version):
            return
        obj = cfg.value
        if obj.get("targets") is None or (obj.get("linear") is None and obj.get("moe") is None):
            return
        if not fields_valid(ctx, obj):
            return
        both = " and ".join(f for f in ("linear", "moe") if obj.get(f) is not None)
        message = (f"quantization_config.targets is mutually exclusive with quantization_config.linear/moe "
                   f"(this config sets targets and {both})")
        yield finding(ctx, cfg.flags[-1], None, _CHECK.key, message=message)
