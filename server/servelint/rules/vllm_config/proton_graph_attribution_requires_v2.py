"""SL657: Proton CUDA graph attribution on Model Runner V1."""

from __future__ import annotations

from typing import Iterable

from ...derive.runner import use_v2_model_runner
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._late import proton_config

_CHECK = VllmCheck("vllm.proton_attribution_v2", "Proton CUDA graph attribution requires the V2 model runner.",
                   "vllm/config/vllm.py")


class ProtonGraphAttributionRequiresV2(Rule):
    """`"proton_graph_attribution": true` in `--profiler-config` on Model Runner V1.

    ## What it does
    For target `cuda`, reports a `--profiler-config` that selects the
    Proton profiler with `proton_graph_attribution` on when the launch
    runs Model Runner V1 (`VLLM_USE_V2_MODEL_RUNNER=0`, or a feature V2
    lacks).

    ## Why
    Attributing replayed CUDA graph kernels relies on V2's graph capture.
    vLLM stops while building its config: "Proton CUDA graph attribution
    requires the V2 model runner."

    ## Example
    ```sh
    VLLM_USE_V2_MODEL_RUNNER=0 vllm serve Qwen/Qwen3-8B --profiler-config \\
        '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton", "proton_graph_attribution": true}'
    ```

    ## Fix
    Run Model Runner V2 (unset `VLLM_USE_V2_MODEL_RUNNER`), or profile with
    `--enforce-eager` and no attribution.

    ## Evidence
    The profiler config as written, `VLLM_USE_V2_MODEL_RUNNER` and the
    model runner as `derive.runner` resolves it (silent when not known).

    ## vLLM source
    `VllmConfig._validate_profiler_config` (0.30.0+), after "The Proton
    profiler currently supports NVIDIA CUDA only". Verified from vLLM's
    source only: the vllm-oracle runs on vLLM's CPU platform, where that
    check fires first.
    """

    code = "SL657"
    name = "proton-graph-attribution-requires-v2"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.30.0", "0.33.0")
    anchor = "--profiler-config"
    requires = ("--profiler-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target != "cuda":
            return
        got = proton_config(ctx)
        if got is None or got[0].get("proton_graph_attribution") is not True:
            return
        runner = use_v2_model_runner(ctx)
        if runner.value is not False:
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        yield finding(ctx, got[1], message, _CHECK.key, note=runner.why)
