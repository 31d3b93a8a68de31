"""SL643: the moonep all2all backend on a quantized model."""

from __future__ import annotations

from typing import Iterable

from ...derive.quantization import quantization_flag, resolved_method
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._late import moonep

_CHECK = VllmCheck("vllm.moonep_unquantized_only", "The moonep all2all backend currently supports unquantized",
                   "vllm/config/vllm.py")


class MoonepUnquantizedOnly(Rule):
    """`--all2all-backend moonep` on a quantized model.

    ## What it does
    Reports `--all2all-backend moonep` when the model is quantized: a
    written `--quantization`, or a checkpoint whose config.json declares a
    quantization method.

    ## Why
    MoonEP moves unquantized BF16 expert weights only. vLLM stops while
    building its config: "The moonep all2all backend currently supports
    unquantized BF16 models only; got quantization='fp8'. Use a different
    --all2all-backend for quantized models."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-30B-A3B -tp 2 --enable-expert-parallel --all2all-backend moonep --quantization fp8
    ```

    ## Fix
    Serve the unquantized checkpoint without `--quantization`, or pick
    another `--all2all-backend`.

    ## Evidence
    `--all2all-backend` as written and `ModelConfig.quantization` as
    `derive.quantization.resolved_method` settles it (silent when the
    checkpoint's config.json is not at hand, or an override may rename the
    method).

    ## vLLM source
    `VllmConfig.__post_init__`, the first check of the moonep block.
    Verified from vLLM's source only: on the vllm-oracle's CPU platform a
    quantized model fails earlier, while vLLM loads its quantization
    config.
    """

    code = "SL643"
    name = "moonep-unquantized-only"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.31.0", "0.33.0")
    anchor = "--all2all-backend"
    partners = ("--quantization",)
    requires = ("--all2all-backend",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target not in ("cuda", "rocm"):
            return
        backend = moonep(ctx)
        if backend is None:
            return
        method = resolved_method(ctx)
        if not method:
            return
        message = vllm_message(ctx, _CHECK.key, repr(method))
        if message is None:
            return
        q = quantization_flag(ctx)
        if q is not None and q.flags:
            rel = related(ctx, [backend], "MoonEP selected by {flag}")
            yield finding(ctx, q.flags[-1], message, _CHECK.key, related_to=rel)
        else:
            yield finding(ctx, backend, message, _CHECK.key, note="the checkpoint's config.json declares "
                          f"quantization {method}")
