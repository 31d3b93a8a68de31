"""SL651: ``--async-scheduling`` on Model Runner V1 with what V1 cannot schedule asynchronously."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of, written
from ...derive.parallel import pipeline_parallel_size
from ...derive.runner import use_v2_model_runner
from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("vllm.async_sched_v1", "Async scheduling is not supported by the V1 model runner with {}.",
                   "vllm/config/vllm.py")
# The methods of SpeculativeMethod outside EagleModelTypes, NgramGPUTypes,
# draft_model, dspark and dflash (vllm/config/speculative.py, 0.33.0).
_V1_ASYNC_INCOMPATIBLE_METHODS = ("ngram", "suffix", "custom_class")


class AsyncSchedulingV1Incompatible(Rule):
    """`--async-scheduling` on Model Runner V1 with n-gram/suffix drafting, unpadded drafter batches or pipeline parallelism.

    ## What it does
    Reports `--async-scheduling` written on a launch that runs Model Runner
    V1 (`VLLM_USE_V2_MODEL_RUNNER=0`, or a feature V2 lacks) together with
    a speculative method `ngram`, `suffix` or `custom_class`,
    `disable_padded_drafter_batch` in the speculative config, or
    `--pipeline-parallel-size` above 1.

    ## Why
    The V1 runner cannot overlap scheduling with these. vLLM stops while
    building its config: "Async scheduling is not supported by the V1
    model runner with pipeline parallelism." Without the flag it turns
    async scheduling off with a warning instead.

    ## Example
    ```sh
    VLLM_USE_V2_MODEL_RUNNER=0 vllm serve Qwen/Qwen3-8B -pp 2 --async-scheduling
    ```

    ## Fix
    Remove `--async-scheduling` (vLLM then decides), or run Model Runner V2.

    ## Evidence
    The flags and `VLLM_USE_V2_MODEL_RUNNER` as the file shows them, the
    model runner as `derive.runner` resolves it, and the speculative
    method as `derive.speculative` settles it (silent when any is not
    known). On ROCm with DBO and DeepEP high-throughput another check
    fires first: silent there.

    ## vLLM source
    `VllmConfig.__post_init__`, the async scheduling block (0.33.0).
    """

    code = "SL651"
    name = "async-scheduling-v1-incompatible"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.33.0", "0.33.0")
    anchor = "--async-scheduling"
    partners = ("--speculative-config", "--pipeline-parallel-size")
    requires = ("--async-scheduling",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        async_sched = value_of(inv, "async_scheduling")
        if async_sched.how != "flag" or async_sched.value is not True or not async_sched.flags:
            return
        if ctx.target == "rocm" and written(inv, "enable_dbo"):
            return
        runner = use_v2_model_runner(ctx)
        if runner.value is not False:
            return
        reason = None
        causes: list = []
        if written(inv, "speculative_config"):
            p = proposer(ctx)
            if p is None or p.fails is not None or p.branch is None:
                return
            if p.branch != "none":
                if p.method is None:
                    return
                padded = p.args.get("disable_padded_drafter_batch")
                if p.method in _V1_ASYNC_INCOMPATIBLE_METHODS:
                    reason = f"{p.method}-based speculative decoding"
                elif padded is True:
                    reason = "disable_padded_drafter_batch=True"
                elif padded not in (None, False):
                    return
                if reason:
                    causes.extend(p.args.flags[-1:])
        if reason is None:
            pp = pipeline_parallel_size(inv)
            if not pp.known:
                return
            if pp.value > 1:
                reason = "pipeline parallelism"
                causes.extend(pp.flags)
        if reason is None:
            return
        message = vllm_message(ctx, _CHECK.key, reason)
        if message is None:
            return
        rel = related(ctx, causes, "set by {flag}")
        yield finding(ctx, async_sched.flags[-1], message, _CHECK.key, related_to=rel,
                      note=runner.why or "Model Runner V1")
