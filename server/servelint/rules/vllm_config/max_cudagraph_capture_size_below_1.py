"""SL664: ``--max-cudagraph-capture-size`` 0 or below with CUDA graphs on."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import json_of, value_of, written
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._late import cuda_graphs_on

_CHECK = VllmCheck("vllm.max_cudagraph_capture_size_ge_1", "Maximum cudagraph size should be greater than or equal to 1",
                   "vllm/config/vllm.py")


class MaxCudagraphCaptureSizeBelow1(Rule):
    """`--max-cudagraph-capture-size 0` (or below) while CUDA graphs stay on.

    ## What it does
    For target `cuda`, reports `--max-cudagraph-capture-size` written as
    0 or a negative number without `--cudagraph-capture-sizes`, when CUDA
    graphs stay on (no `--enforce-eager`, no `cudagraph_mode` NONE, a plain
    generative model).

    ## Why
    The largest batch captured in a CUDA graph must be at least one
    token. vLLM asserts while sizing its CUDA graphs: "Maximum cudagraph
    size should be greater than or equal to 1 when using cuda graph."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --max-cudagraph-capture-size 0
    ```

    ## Fix
    Remove the flag (vLLM picks up to 512), or use `--enforce-eager` /
    `-cc '{"cudagraph_mode": "NONE"}'` to run without CUDA graphs.

    ## Evidence
    The flags as written and the declared target; silent when anything
    written may turn CUDA graphs off or change the sizes first (`-O`, a
    compilation `mode`, `--all2all-backend`, capture sizes in the
    compilation config).

    ## vLLM source
    `VllmConfig._set_cudagraph_sizes` (an `assert`), run on platforms with
    static graphs (CUDA) when CUDA graphs are on. Verified from vLLM's
    source only: the vllm-oracle runs on vLLM's CPU platform, which has no
    static graphs.
    """

    code = "SL664"
    name = "max-cudagraph-capture-size-below-1"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--max-cudagraph-capture-size"
    requires = ("--max-cudagraph-capture-size",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target != "cuda":
            return
        inv = ctx.invocation
        mx = value_of(inv, "max_cudagraph_capture_size")
        if mx.how != "flag" or not is_int(mx.value) or mx.value >= 1 or not mx.flags:
            return
        if written(inv, "cudagraph_capture_sizes"):
            return
        cc = json_of(inv, "compilation_config")
        if not cc.known or any(k in cc.value for k in ("cudagraph_capture_sizes", "max_cudagraph_capture_size")):
            return
        if cuda_graphs_on(ctx) is not True:
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        yield finding(ctx, mx.flags[-1], message, _CHECK.key, note="CUDA graphs are on by default")
