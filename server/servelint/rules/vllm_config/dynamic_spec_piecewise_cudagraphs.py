"""SL609: a dynamic speculative-token schedule on Model Runner V1 turns full CUDA graphs into piecewise ones."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import json_of, value_of
from ...derive.speculative import proposer
from ...diagnostics import Severity
from ..base import Context, Finding, related, release_has
from ..speculative._shared import key_finding, settled_method
from ._shared import VllmConfigRule, checks, v2_off, v2_related

# ``VllmConfig._maybe_disable_dynamic_sd_for_v1`` keeps the schedule on V1
# only for these methods (the others lose it before the cudagraph override).
_V1_METHODS = ("ngram", "eagle", "eagle3", "mtp", "draft_model", "dflash")
_FULL_MODES = ("FULL", "FULL_DECODE_ONLY", "FULL_AND_PIECEWISE")


def _full_mode(ctx: Context):
    """The cudagraph mode the launch writes when it has full CUDA graphs, and its flag."""
    inv = ctx.invocation
    eager = value_of(inv, "enforce_eager")
    if not eager.known or eager.value is True:
        return None, None
    cc = json_of(inv, "compilation_config")
    if not cc.known or not cc.flags:
        return None, None
    mode = cc.value.get("cudagraph_mode")
    if isinstance(mode, str) and mode.upper() in _FULL_MODES:
        return mode.upper(), cc.flags[-1]
    return None, None


class DynamicSpecPiecewiseCudagraphs(VllmConfigRule):
    """A dynamic speculative-token schedule on Model Runner V1 with a full CUDA-graph mode: vLLM uses piecewise graphs.

    ## What it does
    Warns about `num_speculative_tokens_per_batch_size` in the speculative
    config together with a `cudagraph_mode` of `--compilation-config` that
    has full CUDA graphs (`FULL`, `FULL_DECODE_ONLY`, `FULL_AND_PIECEWISE`)
    when vLLM runs Model Runner V1 (`VLLM_USE_V2_MODEL_RUNNER=0`, or a
    feature V2 lacks) on a CUDA GPU.

    ## Why
    The schedule changes the target's verification length at run time,
    which V1's full CUDA graphs cannot follow. vLLM logs "Dynamic
    speculative decoding changes the target verification length at
    runtime. Overriding cudagraph_mode from FULL to PIECEWISE for
    reliability. Use VLLM_USE_V2_MODEL_RUNNER=1 if you want to use full
    CUDA graphs." and starts with piecewise graphs.

    ## Example
    ```sh
    VLLM_USE_V2_MODEL_RUNNER=0 vllm serve meta-llama/Llama-3.1-8B-Instruct \\
        --compilation-config '{"cudagraph_mode": "FULL"}' --speculative-config \\
        '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3, "num_speculative_tokens_per_batch_size": [[1, 8, 3], [9, 256, 1]]}'
    ```

    ## Fix
    Use Model Runner V2 (unset `VLLM_USE_V2_MODEL_RUNNER=0`), write
    `cudagraph_mode` `PIECEWISE` to say what runs, or drop the schedule.

    ## Evidence
    The flags as written and the runner `derive.runner` resolves. Only a
    `cudagraph_mode` the launch writes counts (the default depends on the
    optimization level and the platform); other targets than `cuda`, a
    schedule vLLM drops first (data parallelism, a V1 method without
    truncation: SL433) and a runner servelint cannot tell leave the rule
    silent.

    ## vLLM source
    `VllmConfig._maybe_override_dynamic_sd_cudagraph_mode` (vllm/config/vllm.py).
    """

    code = "SL609"
    name = "dynamic-spec-piecewise-cudagraphs"
    severity = Severity.WARNING
    vllm_checks = checks("dynamic_piecewise")
    requires = ("--speculative-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target != "cuda":
            return
        p = proposer(ctx)
        if p is None or p.args.get("num_speculative_tokens_per_batch_size") is None or not p.args.flags:
            return
        mode, flag = _full_mode(ctx)
        if mode is None:
            return
        if release_has(ctx, "speculative.dynamic_dp"):
            dp = value_of(ctx.invocation, "data_parallel_size")
            if not (dp.known and is_int(dp.value) and dp.value <= 1):
                return
        if release_has(ctx, "speculative.dynamic_v1"):
            method = settled_method(p)
            if method is None or method not in _V1_METHODS:
                return
        v2 = v2_off(ctx)
        if v2 is None:
            return
        message = ("Dynamic speculative decoding changes the target verification length at runtime. Overriding "
                   f"cudagraph_mode from {mode} to PIECEWISE for reliability. Use VLLM_USE_V2_MODEL_RUNNER=1 if you "
                   "want to use full CUDA graphs.")
        why = v2.why if v2.how != "env" else "VLLM_USE_V2_MODEL_RUNNER=0"
        key = "num_speculative_tokens_per_batch_size"
        yield key_finding(ctx, p.args, key, message, "vllm_config.dynamic_piecewise",
                          message=(f"vLLM runs piecewise CUDA graphs, not cudagraph_mode {mode}: a dynamic "
                                   f"speculative-token schedule on Model Runner V1 ({why}) overrides it"),
                          related_to=related(ctx, (flag,), "cudagraph mode set here") + v2_related(ctx, v2))
