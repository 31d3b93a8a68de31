"""SL385: `--quantization-config` `targets` that are not online shorthands."""

from __future__ import annotations

from typing import Iterable

from ...derive.quant_config import has_targets, shorthands
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import quant_config, targets_problem, type_error

_SHORTHAND = VllmCheck("quant_config.targets_shorthand", "is not a valid online shorthand name; expected one of {}",
                       "vllm/config/quantization.py")
_TYPE = VllmCheck("quant_config.targets_type", "targets must be a dict, got {}", "vllm/config/quantization.py")


class QuantizationConfigTargetsInvalid(Rule):
    """`--quantization-config` `targets` that is not a map of layer patterns to online shorthands.

    ## What it does
    Reports a `targets` in `--quantization-config` that is not an object,
    or maps a layer pattern to something other than an online shorthand
    (`fp8_per_tensor`, `fp8_per_block`, `fp8_per_channel`, `mxfp8`, `mxfp4`,
    `int8_per_channel_weight_only`, `nvfp4_per_token`).

    ## Why
    Each target picks the online quantization of the layers it matches.
    argparse converts the option into `QuantizationConfigArgs` and stops:
    "argument --quantization-config: 1 validation error for
    QuantizationConfigArgs ... targets[re:.*proj] = fp8 is not a valid
    online shorthand name; expected one of ['fp8_per_block', ...]". A
    `targets` that is not an object raises a `TypeError` ("targets must be
    a dict, got list") that escapes pydantic: argparse says only "invalid
    _optional_type value", and servelint words that finding itself.

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --quantization-config '{"targets": {"re:.*proj": "fp8"}}'
    ```

    ## Fix
    Map each pattern to one of the shorthands the message lists.

    ## Evidence
    The JSON as written (dotted keys merged); from 0.30.0, the first
    release with `targets`. A value that is not a string is shown as
    Python prints it, as vLLM does.

    ## vLLM source
    `QuantizationConfigArgs._validate_targets`.
    """

    code = "SL385"
    name = "quantization-config-targets-invalid"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_SHORTHAND, _TYPE)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--quantization-config"
    requires = ("--quantization-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        cfg = quant_config(ctx)
        if cfg is None or "targets" not in cfg.value or not has_targets(ctx.version):
            return
        where = type_error(ctx, cfg.value)
        if where is not None:
            if where != "targets":
                return  # SL383: the TypeError of a weight/activation comes first
            got = type(cfg.value["targets"]).__name__
            message = (f"argument --quantization-config: invalid value: targets must be an object, not {got} "
                       f"(vLLM's `{vllm_message(ctx, _TYPE.key, got)}` escapes pydantic, so argparse reports "
                       "only an invalid value)")
            yield finding(ctx, cfg.flags[-1], None, _TYPE.key, message=message)
            return
        problem = targets_problem(ctx, cfg.value["targets"])
        if not problem:
            return
        kind, what = problem
        pattern, value = what
        valid = str(sorted(shorthands(ctx.version) or ()))
        shown = value if isinstance(value, str) else str(value)
        message = vllm_message(ctx, _SHORTHAND.key, pattern, shown, valid)
        yield finding(ctx, cfg.flags[-1], message, _SHORTHAND.key)
