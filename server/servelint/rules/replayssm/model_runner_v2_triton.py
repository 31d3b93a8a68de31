"""SL209: Model Runner V2 forced on a platform without Triton."""

from __future__ import annotations

from typing import Iterable

from ...derive.runner import V2_ENV, has_triton, use_v2_model_runner
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, path_of, vllm_source
from ._shared import SPEC_READS


class ModelRunnerV2Triton(Rule):
    """Model Runner V2 forced on a platform without Triton.

    ## What it does
    In 0.25.0-0.32.0, reports a launch that forces Model Runner V2
    (`VLLM_USE_V2_MODEL_RUNNER=1` in its environment; also a watermark or
    HiSparse config from 0.30.0, and prefill context parallelism or a DSpark
    draft in 0.27.x/0.28.0) when the declared target has no Triton (`cpu`).

    ## Why
    vLLM validates the V2 runner while building its config and stops with
    "Model Runner V2 requires Triton." 0.33.0 no longer checks this.

    ## Example
    ```sh
    VLLM_USE_V2_MODEL_RUNNER=1 vllm serve Qwen/Qwen3-8B    # on a CPU host
    ```

    ## Fix
    Unset `VLLM_USE_V2_MODEL_RUNNER` (or set it to 0).

    ## Evidence
    The environment the file gives the launch (a variable set to something
    only known at run time is not judged), the flags that force V2, and
    the declared target (`cpu` has no Triton; the target comes from the
    settings, not from the file).

    ## vLLM source
    `VllmConfig._validate_v2_model_runner`, called from `__post_init__`
    when `use_v2_model_runner` holds.
    """

    code = "SL209"
    vllm_checks = (VllmCheck("model_runner_v2_triton", "Model Runner V2 requires Triton.", "vllm/config/vllm.py",
                             whole=True),)
    reviewed = ("0.25.0", "0.33.0")
    name = "model-runner-v2-triton"
    # Only a platform without Triton has the problem, and there the engine
    # runs every rule: on CUDA nothing a launch sets can trigger it.
    requires = ()
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    until = "0.32.0"
    reads = frozenset({V2_ENV, "attention_config", "watermark_config", "prefill_context_parallel_size"}) | SPEC_READS

    def check(self, ctx: Context) -> Iterable[Finding]:
        if has_triton(ctx.target) is not False:
            return
        inv = ctx.invocation
        v2 = use_v2_model_runner(ctx)
        if not v2.value:
            return
        message = "Model Runner V2 requires Triton."
        note = f"{v2.why}; target {ctx.target} has no Triton"
        var = inv.env.get(V2_ENV)
        if v2.how == "env" and var is not None and var.span is not None:
            span, path = var.span, ctx.path
        elif v2.flags:
            span, path = v2.flags[-1].name_span, path_of(ctx, v2.flags[-1])
        else:
            span, path = inv.launch.entry_span, ctx.path
        yield Finding(span, f"{message} ({note})", vllm_message=message, path=path,
                      data={"vllm_source": vllm_source(ctx, "model_runner_v2_triton")})
