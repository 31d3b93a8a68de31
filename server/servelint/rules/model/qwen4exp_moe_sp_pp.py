"""SL356: pipeline parallelism for a Qwen4Exp model that runs MoE sequence parallelism."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, related, vllm_message
from ._hooks import pipeline_flag, qwen4exp_text

_CHECK = VllmCheck("model.qwen4exp_moe_sp_pp", "Qwen4Exp MoE SP requires PP=1",
                   "vllm/model_executor/models/config.py", whole=True)

# ``ParallelConfig.use_sequence_parallel_moe``'s backends (vllm/config/parallel.py,
# the same tuple in 0.32.0 :764 and 0.33.0 :768), and the two removed names
# ``ParallelConfig.__post_init__`` replaces with ``allgather_reducescatter``.
_SP_BACKENDS = frozenset({
    "allgather_reducescatter", "deepep_high_throughput", "deepep_low_latency", "deepep_v2",
    "flashinfer_nvlink_one_sided", "passthrough", "mori_high_throughput", "mori_low_latency", "nixl_ep",
    "pplx", "naive",
})


class Qwen4expMoeSpPp(Rule):
    """Pipeline parallelism for a Qwen4Exp model with sequence-parallel MoE.

    ## What it does
    On a CUDA target, reports a `--pipeline-parallel-size` other than 1
    when the model is a Qwen4Exp model and vLLM runs its MoE layers
    sequence-parallel: `--enable-expert-parallel`, a tensor-parallel and a
    data-parallel size above 1, and an all-to-all backend that shards the
    tokens (`allgather_reducescatter`, the default, the DeepEP, MORI and
    NIXL-EP backends...).

    ## Why
    MoE sequence parallelism also turns on Qwen4Exp's hyper-connection
    sequence parallelism, which needs a single pipeline stage; vLLM's config
    hook stops with "Qwen4Exp MoE SP requires PP=1".

    ## Example
    ```sh
    vllm serve ./qwen4-exp -tp 2 -dp 2 --enable-expert-parallel -pp 2
    ```

    ## Fix
    Use `--pipeline-parallel-size 1`.

    ## Evidence
    The written sizes (or the release's defaults), the target platform
    (CUDA; 0.33.0 also checks on ROCm, where this rule stays silent) and
    the model's config.json with one architecture the release's
    `MODELS_CONFIG_MAP` maps to a Qwen4Exp hook. The CPU oracle never runs
    the check, so this rule has a golden case only.

    ## vLLM source
    `Qwen4ExpForConditionalGenerationConfig.verify_and_update_config`
    and `ParallelConfig.use_sequence_parallel_moe`.
    """

    code = "SL356"
    name = "qwen4exp-moe-sp-pp"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--pipeline-parallel-size"
    partners = ("--enable-expert-parallel", "--data-parallel-size", "--tensor-parallel-size", "--all2all-backend")
    requires = ("--pipeline-parallel-size",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target != "cuda":
            return
        pp = pipeline_flag(ctx)
        if pp is None or pp[0] == 1:
            return
        inv = ctx.invocation
        ep = value_of(inv, "enable_expert_parallel")
        if not ep.known or ep.value is not True:
            return
        sizes = []
        for dest in ("tensor_parallel_size", "data_parallel_size"):
            v = value_of(inv, dest)
            if not v.known or not is_int(v.value) or v.value <= 1:
                return
            sizes.append(v)
        backend = value_of(inv, "all2all_backend")
        if not backend.known or backend.value not in _SP_BACKENDS:
            return
        if qwen4exp_text(ctx) is None:
            return
        rel = related(ctx, ep.flags, "expert parallelism set by {flag}")
        for v in sizes:
            rel += related(ctx, v.flags, "parallel size set by {flag}")
        rel += [r for r in [model_note(ctx)] if r is not None]
        yield finding(ctx, pp[1], vllm_message(ctx, _CHECK.key), _CHECK.key, related_to=rel)
