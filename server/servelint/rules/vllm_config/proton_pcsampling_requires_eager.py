"""SL658: Proton PC sampling with CUDA graphs on."""

from __future__ import annotations

from typing import Iterable

from ...derive.runner import use_v2_model_runner
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._late import cuda_graphs_on, proton_config, proton_pcsampling

_CHECK = VllmCheck("vllm.proton_pcsampling_eager", "Proton PC sampling requires CUDA graphs to be disabled.",
                   "vllm/config/vllm.py")


class ProtonPcsamplingRequiresEager(Rule):
    """Proton `"proton_mode": "pcsampling"` without `--enforce-eager`.

    ## What it does
    For target `cuda`, reports a `--profiler-config` that selects the
    Proton profiler with a `pcsampling` mode when CUDA graphs stay on
    (the default: no `--enforce-eager`, no `cudagraph_mode` NONE).

    ## Why
    PC sampling cannot observe kernels replayed from a CUDA graph. vLLM
    stops while building its config: "Proton PC sampling requires CUDA
    graphs to be disabled. Use --enforce-eager."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --profiler-config \\
        '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton", "proton_mode": "pcsampling"}'
    ```

    ## Fix
    Add `--enforce-eager` while profiling with PC sampling.

    ## Evidence
    The profiler config as written; CUDA graphs on only for a plain
    generative model with nothing written that may turn them off
    (`-O`, a compilation `mode`, `--all2all-backend`). With graph
    attribution on, the model runner must be V2 (else SL657 reports).

    ## vLLM source
    `VllmConfig._validate_profiler_config` (0.30.0+). Verified from
    vLLM's source only: on the vllm-oracle's CPU platform the CUDA check
    fires first.
    """

    code = "SL658"
    name = "proton-pcsampling-requires-eager"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.30.0", "0.33.0")
    anchor = "--profiler-config"
    partners = ("--enforce-eager",)
    requires = ("--profiler-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target != "cuda":
            return
        got = proton_config(ctx)
        if got is None or not proton_pcsampling(got[0]):
            return
        if got[0].get("proton_graph_attribution") and use_v2_model_runner(ctx).value is not True:
            return
        if cuda_graphs_on(ctx) is not True:
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        yield finding(ctx, got[1], message, _CHECK.key, note="CUDA graphs are on by default")
