"""SL383: a `--quantization-config` `linear`/`moe` name vLLM does not know."""

from __future__ import annotations

from typing import Iterable

from ...derive.quant_config import key_names
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import name_problems, quant_config, type_error

_UNKNOWN = VllmCheck("quant_config.unknown_name", "unknown quantization name {}; expected one of {}",
                     "vllm/config/quantization.py")
_TYPE = VllmCheck("quant_config.key_type", "expected str or QuantKey, got {}", "vllm/config/quantization.py")


class QuantizationConfigUnknownName(Rule):
    """`--quantization-config` `linear`/`moe` with a quantization name vLLM does not know.

    ## What it does
    Reports a `linear` or `moe` (or their `weight`/`activation`) in
    `--quantization-config` that is neither an online shorthand
    (`fp8_per_tensor`, `mxfp8`, ...) nor a name of `QUANT_KEY_NAMES`
    (`fp8_per_tensor_static`, `fp8_per_token`, ...) in the release, and a
    `weight`/`activation` that is not a string (then alone, in servelint's
    words, as vLLM reports nothing else).

    ## Why
    The names pick the quantization kernels. argparse converts the option
    into `QuantizationConfigArgs` and stops: "argument --quantization-config:
    1 validation error for QuantizationConfigArgs ... unknown quantization
    name 'fp8_dynamic'; expected one of ['fp8_per_block_dynamic', ...]" (or
    "argument --quantization-config: invalid _optional_type value: ..."
    for a `weight`/`activation` that is not a string: vLLM's `TypeError`
    "expected str or QuantKey, got int" escapes pydantic, and argparse
    hides every other problem of the object).

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --quantization-config '{"linear": {"weight": "fp8_dynamic"}}'
    ```

    ## Fix
    Use one of the names the message lists, or an online shorthand for the
    whole spec.

    ## Evidence
    The JSON as written (dotted keys merged) and the release's own name
    tables (`derive.quant_config`, generated from its source); an unknown
    key or a value of another shape keeps the rule silent.

    ## vLLM source
    `_coerce_quant_key`, called by `QuantizationConfigArgs._coerce_spec` and
    `QuantSpec`'s field validators, while argparse converts the option.
    """

    code = "SL383"
    name = "quantization-config-unknown-name"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_UNKNOWN, _TYPE)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--quantization-config"
    requires = ("--quantization-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        cfg = quant_config(ctx)
        if cfg is None:
            return
        where = type_error(ctx, cfg.value)
        if where is not None:
            if where == "targets":
                return  # SL385
            value = cfg.value[where.split(".")[0]][where.split(".")[1]]
            message = (f"argument --quantization-config: invalid value: {where} must be a quantization name, "
                       f"not {type(value).__name__} (vLLM's `{vllm_message(ctx, _TYPE.key, type(value).__name__)}` "
                       "escapes pydantic, so argparse reports only an invalid value)")
            yield finding(ctx, cfg.flags[-1], None, _TYPE.key, message=message)
            return
        names = str(sorted(key_names(ctx.version) or ()))
        for field in ("linear", "moe"):
            for kind, what in name_problems(ctx, field, cfg.value.get(field)) or ():
                if kind == "unknown":
                    msg = vllm_message(ctx, _UNKNOWN.key, repr(what), names)
                    yield finding(ctx, cfg.flags[-1], msg, _UNKNOWN.key, note=f"in {field}")
