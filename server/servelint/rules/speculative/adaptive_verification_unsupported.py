"""SL443: adaptive verification with LoRA, without CUDA graphs, or with pipeline parallelism."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import json_of, value_of
from ...derive.speculative import speculative_args
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, related
from ._shared import key_finding, speculative_written

_PATH = "vllm/config/vllm.py"
_LORA = VllmCheck("speculative.adaptive_lora", "Adaptive verification is not currently compatible with LoRA", _PATH)
_EAGER = VllmCheck("speculative.adaptive_eager", "Adaptive verification is not currently compatible with enforce_eager/cudagraph_mode=none", _PATH)
_FULL = VllmCheck("speculative.adaptive_full_cudagraphs", "Adaptive verification requires full CUDA graphs.", _PATH)
_PP = VllmCheck("speculative.adaptive_pp", "Adaptive verification is not currently compatible with pipeline parallelism", _PATH)

_FULL_MESSAGE = ("Adaptive verification requires full CUDA graphs. Use cudagraph mode FULL, FULL_DECODE_ONLY, "
                 "or FULL_AND_PIECEWISE, or disable adaptive verification.")


def _cudagraph_mode(ctx: Context):
    """The cudagraph mode the launch writes ("NONE" for --enforce-eager), or None."""
    inv = ctx.invocation
    eager = value_of(inv, "enforce_eager")
    if eager.how == "flag" and eager.value is True:
        return "NONE", eager.flags[-1]
    cc = json_of(inv, "compilation_config")
    if cc.known and isinstance(cc.value, dict):
        mode = cc.value.get("cudagraph_mode")
        if isinstance(mode, str) and cc.flags:
            return mode.upper(), cc.flags[-1]
    return None, None


class AdaptiveVerificationUnsupported(Rule):
    """`enable_adaptive_verification` with LoRA, eager execution (no full CUDA graphs) or pipeline parallelism.

    ## What it does
    Reports `enable_adaptive_verification: true` in the speculative config
    together with `--enable-lora`, with `--enforce-eager` or a
    `cudagraph_mode` without full CUDA graphs (`NONE`, `PIECEWISE`; in 0.29.0
    only `NONE`), or with `--pipeline-parallel-size` above 1.

    ## Why
    Adaptive verification trims the batch on the GPU from costs profiled on
    captured CUDA graphs, and its confidences exist on the last pipeline
    rank only. vLLM stops with "Adaptive verification is not currently
    compatible with LoRA", "Adaptive verification requires full CUDA
    graphs. ..." or "... with pipeline parallelism".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --enforce-eager --speculative-config \\
        '{"method": "dspark", "model": "./dspark-qwen3-8b", "enable_adaptive_verification": true}'
    ```

    ## Fix
    Turn adaptive verification off, or drop the other setting.

    ## Evidence
    The flags as written. The CUDA-graph mode vLLM picks by default on a
    CUDA GPU has full graphs; servelint reports only a mode the launch
    writes.

    ## vLLM source
    `VllmConfig._validate_adaptive_verification`.
    """

    code = "SL443"
    name = "adaptive-verification-unsupported"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_LORA, _EAGER, _FULL, _PP)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        s = speculative_args(ctx)
        if s is None or s.get("enable_adaptive_verification") is not True:
            return
        inv, version = ctx.invocation, ctx.version
        lora = value_of(inv, "enable_lora")
        if lora.how == "flag" and lora.value is True and validators.has(_LORA.key, version):
            yield key_finding(ctx, s, "enable_adaptive_verification", _LORA.needle, _LORA.key,
                              related_to=related(ctx, lora.flags, "LoRA enabled here"))
            return
        mode, flag = _cudagraph_mode(ctx)
        if validators.has(_FULL.key, version) and mode in ("NONE", "PIECEWISE"):
            yield key_finding(ctx, s, "enable_adaptive_verification", _FULL_MESSAGE, _FULL.key,
                              note=f"cudagraph mode {mode}", related_to=related(ctx, (flag,), "set here"))
            return
        if validators.has(_EAGER.key, version) and mode == "NONE":
            yield key_finding(ctx, s, "enable_adaptive_verification", _EAGER.needle, _EAGER.key,
                              related_to=related(ctx, (flag,), "set here"))
            return
        pp = value_of(inv, "pipeline_parallel_size")
        if pp.how == "flag" and is_int(pp.value) and pp.value > 1 and validators.has(_PP.key, version):
            yield key_finding(ctx, s, "enable_adaptive_verification", _PP.needle, _PP.key,
                              related_to=related(ctx, pp.flags, "pipeline parallelism set here"))
