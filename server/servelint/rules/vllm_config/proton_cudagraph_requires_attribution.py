"""SL659: the Proton profiler with CUDA graphs on and graph attribution off."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._late import cuda_graphs_on, proton_config, proton_pcsampling

_CHECK = VllmCheck("vllm.proton_cudagraph_attribution", "Proton profiling with CUDA graphs requires",
                   "vllm/config/vllm.py")


class ProtonCudagraphRequiresAttribution(Rule):
    """The Proton profiler with CUDA graphs on and `proton_graph_attribution` off.

    ## What it does
    For target `cuda`, reports a `--profiler-config` that selects the
    Proton profiler without `"proton_graph_attribution": true` when CUDA
    graphs stay on (the default: no `--enforce-eager`, no `cudagraph_mode`
    NONE) and the mode is not PC sampling (SL658 reports that).

    ## Why
    Without attribution Proton cannot see the kernels replayed from CUDA
    graphs, so the profile would miss most of the decode work. vLLM stops
    while building its config: "Proton profiling with CUDA graphs requires
    proton_graph_attribution=True to capture replayed kernels. Enable
    attribution or use --enforce-eager."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --profiler-config '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton"}'
    ```

    ## Fix
    Add `"proton_graph_attribution": true` (Model Runner V2), or profile
    with `--enforce-eager`.

    ## Evidence
    The profiler config as written; CUDA graphs on only for a plain
    generative model with nothing written that may turn them off
    (`-O`, a compilation `mode`, `--all2all-backend`).

    ## vLLM source
    `VllmConfig._validate_profiler_config` (0.30.0+). Verified from
    vLLM's source only: on the vllm-oracle's CPU platform the CUDA check
    fires first.
    """

    code = "SL659"
    name = "proton-cudagraph-requires-attribution"
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
        if got is None or got[0].get("proton_graph_attribution", False) or proton_pcsampling(got[0]):
            return
        if cuda_graphs_on(ctx) is not True:
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        yield finding(ctx, got[1], message, _CHECK.key, note="CUDA graphs are on by default")
