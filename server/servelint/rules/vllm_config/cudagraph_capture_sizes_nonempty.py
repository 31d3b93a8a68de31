"""SL614: an empty ``cudagraph_capture_sizes`` list with CUDA graphs on."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import json_of, value_of, written
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._late import cuda_graphs_on

_CHECK = VllmCheck("vllm.cudagraph_capture_sizes_nonempty",
                   "cudagraph_capture_sizes should contain at least one element", "vllm/config/vllm.py")


class CudagraphCaptureSizesNonempty(Rule):
    """`-cc.cudagraph_capture_sizes=[]` while CUDA graphs stay on.

    ## What it does
    For target `cuda`, reports a compilation config whose
    `cudagraph_capture_sizes` is an empty list when CUDA graphs stay on
    (no `--enforce-eager`, no `cudagraph_mode` NONE, a plain generative
    model) and the largest capture size is at least 1 (vLLM checks that
    first: SL664).

    ## Why
    With CUDA graphs on, vLLM needs at least one batch size to capture.
    It asserts while sizing its CUDA graphs: "cudagraph_capture_sizes
    should contain at least one element when using cuda graph."
    (`--cudagraph-capture-sizes` itself takes one integer or more: an
    empty list can only come from the compilation config.)

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -cc.cudagraph_capture_sizes='[]'
    ```

    ## Fix
    Give at least one size, remove the key (vLLM picks the sizes), or run
    without CUDA graphs (`--enforce-eager` or `-cc.cudagraph_mode=NONE`).

    ## Evidence
    The compilation config as written and the declared target; silent
    when anything written may turn CUDA graphs off first (`-O`, a
    compilation `mode`, `--all2all-backend`) or when the largest capture
    size is written and not a known integer of at least 1.

    ## vLLM source
    `VllmConfig._set_cudagraph_sizes` (an `assert`), run on platforms with
    static graphs (CUDA) when CUDA graphs are on. Verified from vLLM's
    source only: the vllm-oracle runs on vLLM's CPU platform, which has no
    static graphs (its hook also empties the list itself).
    """

    code = "SL614"
    name = "cudagraph-capture-sizes-nonempty"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--compilation-config"
    requires = ("--compilation-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target != "cuda":
            return
        inv = ctx.invocation
        if written(inv, "cudagraph_capture_sizes"):
            return  # mutually exclusive with the compilation config's key
        cc = json_of(inv, "compilation_config")
        if cc.how != "flag" or not cc.flags:
            return
        sizes = cc.value.get("cudagraph_capture_sizes")
        if not isinstance(sizes, list) or sizes:
            return
        if "max_cudagraph_capture_size" in cc.value:
            mx = cc.value["max_cudagraph_capture_size"]
            if written(inv, "max_cudagraph_capture_size") or mx is not None and (not is_int(mx) or mx < 1):
                return
        elif written(inv, "max_cudagraph_capture_size"):
            mx = value_of(inv, "max_cudagraph_capture_size")
            if mx.how != "flag" or not is_int(mx.value) or mx.value < 1:
                return
        if cuda_graphs_on(ctx) is not True:
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        yield finding(ctx, cc.flags[-1], message, _CHECK.key, note="CUDA graphs are on by default")
