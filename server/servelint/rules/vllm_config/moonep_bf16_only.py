"""SL640: the moonep all2all backend with a dtype other than bfloat16."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.model import dtype
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._late import moonep

_CHECK = VllmCheck("vllm.moonep_bf16_only", "The moonep all2all backend currently supports BF16 models", "vllm/config/vllm.py")


class MoonepBf16Only(Rule):
    """`--all2all-backend moonep` on a model that does not run in bfloat16.

    ## What it does
    Reports `--all2all-backend moonep` when the model's dtype is not
    bfloat16: a written `--dtype float16` / `half` / `float32`, or (target
    `cuda`) a checkpoint whose `dtype` is float16.

    ## Why
    MoonEP's kernels take BF16 only. vLLM stops while building its config:
    "The moonep all2all backend currently supports BF16 models only; got
    dtype=torch.float16. Use a different --all2all-backend or --dtype
    bfloat16."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-30B-A3B -tp 2 --enable-expert-parallel --all2all-backend moonep --dtype float16
    ```

    ## Fix
    Write `--dtype bfloat16` (on a GPU with bfloat16), or pick another
    `--all2all-backend`.

    ## Evidence
    `--all2all-backend` as written and the dtype as `derive.model.dtype`
    resolves it: a written `--dtype`, or `auto` with the checkpoint's
    config.json on target `cuda`. Silent when the dtype may differ by GPU
    (a bfloat16 checkpoint becomes float16 on GPUs without bfloat16).

    ## vLLM source
    `VllmConfig.__post_init__`, the moonep block (after its quantization
    check).
    """

    code = "SL640"
    name = "moonep-bf16-only"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.31.0", "0.33.0")
    anchor = "--all2all-backend"
    partners = ("--dtype",)
    requires = ("--all2all-backend",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        backend = moonep(ctx)
        if backend is None:
            return
        name, certain, how = dtype(ctx)
        if name is None or name == "bfloat16" or not certain:
            return
        message = vllm_message(ctx, _CHECK.key, f"torch.{name}")
        if message is None:
            return
        written_dtype = value_of(ctx.invocation, "dtype")
        if written_dtype.how == "flag" and written_dtype.flags:
            rel = related(ctx, [backend], "MoonEP selected by {flag}")
            yield finding(ctx, written_dtype.flags[-1], message, _CHECK.key, related_to=rel)
        else:
            yield finding(ctx, backend, message, _CHECK.key, note=how)
