"""Parallelism sizes the model or the platform cannot take.

``ModelConfig.verify_with_parallel_config`` (vllm/config/model.py) checks,
in this order, that the attention heads split evenly over tensor-parallel
ranks, that expert parallelism has experts to spread and that pipeline
parallelism is implemented by the model class; ``ParallelConfig`` refuses
EPLB without expert parallelism, ``EngineArgs.create_engine_config`` refuses
external data parallelism for dense models, and ``VllmConfig.__post_init__``
refuses microbatching (DBO) without a DeepEP/NIXL all-to-all backend.

Facts about the model come from its config.json (SL301, SL306, SL308) or
from vLLM's model registry as generated per release (SL305); without them
the rules stay silent.
"""

from __future__ import annotations

from typing import Iterable

from ..diagnostics import Applicability, Category, Severity
from ..knowledge.validators import VllmCheck
from . import top_facts as tf
from . import vllm_state as st
from .base import Context, Finding, Rule

_MODEL_READS = frozenset({"model", "hf_overrides"})


def _inferred_note(ctx: Context) -> tuple[Severity | None, str]:
    model = ctx.model
    if model is not None and model.inferred:
        detail = model.detail.removeprefix("inferred from ")
        return Severity.WARNING, f"architecture {model.architecture} inferred from {detail}"
    return None, ""


class TensorParallelHeads(Rule):
    """`--tensor-parallel-size` that does not divide the attention heads.

    ## What it does
    Reports `-tp N` when the model's config.json gives a
    `num_attention_heads` (of its `text_config` for multimodal models) that
    N does not divide.

    ## Why
    Each tensor-parallel rank holds the same number of attention heads.
    vLLM checks this while building its config and stops with "Total number
    of attention heads (32) must be divisible by tensor parallel size (3)."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 3    # 32 heads
    ```

    ## Fix
    Use a tensor-parallel size that divides the head count (1, 2, 4, 8...),
    and spread the rest over pipeline parallelism (`-pp`) if needed.

    Silent when no config.json is at hand, when `--hf-overrides` is written,
    and for the two model types whose head count vLLM reads elsewhere
    (`cohere_asr`, `moss_audio`).

    ## vLLM source
    `ModelConfig.verify_with_parallel_config`, vllm/config/model.py:
    0.25.0:1215, 0.26.0:1233, 0.27.x:1318, 0.28.0:1370, 0.29.0:1416,
    0.30.0:1429, 0.31.0:1507, 0.32.0:1549, 0.33.0:1562; the head count is
    `ModelArchConfigConvertorBase.get_total_num_attention_heads`
    (vllm/transformers_utils/model_arch_config_convertor.py, 0.33.0:82).
    """

    code = "SL301"
    vllm_checks = (VllmCheck("heads", "must be divisible by tensor parallel size", "vllm/config/model.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "tp-divides-attention-heads"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--tensor-parallel-size"
    reads = _MODEL_READS | {"tensor_parallel_size"}

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        flag = st.last_flag(inv, "tensor_parallel_size")
        tp = st.value_of(inv, "tensor_parallel_size")
        if flag is None or tp.how != "flag" or not tf.is_int(tp.value) or tp.value < 1:
            return
        heads = tf.num_attention_heads(ctx)
        if heads is None or heads % tp.value == 0:
            return
        message = (
            f"Total number of attention heads ({heads}) must be divisible by tensor parallel size ({tp.value})."
        )
        divisors = [d for d in range(1, min(heads, 64) + 1) if heads % d == 0]
        note = f"sizes that divide {heads}: {', '.join(map(str, divisors[:8]))}"
        rel = [r for r in [tf.model_note(ctx)] if r is not None]
        yield tf.finding(ctx, flag, message, "heads", note=note, related_to=rel)


class PipelineParallelUnsupported(Rule):
    """`--pipeline-parallel-size` above 1 for a model without pipeline parallelism.

    ## What it does
    Reports `-pp N` (N > 1) when the model's architecture, in this vLLM
    release, does not implement the `SupportsPP` interface (Mamba, Mamba2,
    many encoder and multimodal models...). The architecture comes from
    the model's config.json or servelint's model table; when it is only
    inferred from the model's name the diagnostic is a warning.

    ## Why
    vLLM checks this while building its config and stops with "Pipeline
    parallelism is not supported for this model. Supported models implement
    the `SupportsPP` interface."

    ## Example
    ```sh
    vllm serve state-spaces/mamba-2.8b-hf -pp 2
    ```

    ## Fix
    Use tensor parallelism (`-tp`) instead, or a model that supports
    pipeline parallelism.


    ## Fix safety
    Unsafe: removing `--pipeline-parallel-size` changes how the model is split
    across GPUs.
    ## vLLM source
    `ModelConfig.verify_with_parallel_config`, vllm/config/model.py:
    0.25.0:1227, 0.26.0:1245, 0.27.x:1330, 0.28.0:1382, 0.29.0:1428,
    0.30.0:1441, 0.31.0:1519, 0.32.0:1561, 0.33.0:1574
    (`ModelRegistry.is_pp_supported_model`: `_ModelInfo.supports_pp`).
    """

    code = "SL305"
    fixes = frozenset({Applicability.UNSAFE})
    vllm_checks = (VllmCheck("pp", "Pipeline parallelism is not supported for this model.", "vllm/config/model.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "pp-unsupported-model"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--pipeline-parallel-size"
    reads = _MODEL_READS | {"pipeline_parallel_size", "model_impl", "runner", "convert"}

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        flag = st.last_flag(inv, "pipeline_parallel_size")
        pp = st.value_of(inv, "pipeline_parallel_size")
        if flag is None or pp.how != "flag" or not tf.is_int(pp.value) or pp.value <= 1:
            return
        if any(st.written(inv, d) for d in ("model_impl", "runner", "convert")):
            return  # another model class may be loaded
        arch = st.arch_facts(ctx)
        if arch is None or arch.supports_pp is not False:
            return
        model = ctx.model
        if model is not None and model.alternatives:
            return  # the table's pick is a guess among several
        message = (
            "Pipeline parallelism is not supported for this model. "
            "Supported models implement the `SupportsPP` interface."
        )
        severity, note = _inferred_note(ctx)
        note = note or f"architecture {ctx.architecture} in vLLM {ctx.version}"
        fix = tf.removal_fix(ctx, st.written(inv, "pipeline_parallel_size"), "Remove --pipeline-parallel-size")
        yield tf.finding(ctx, flag, message, "pp", note=note, severity=severity, fixes=[fix] if fix else None)


class ExpertParallelDenseModel(Rule):
    """`--enable-expert-parallel` on a model without experts.

    ## What it does
    Reports `--enable-expert-parallel` when the model's config.json has no
    expert count (`num_experts`, `moe_num_experts`, `n_routed_experts`,
    `num_local_experts`, or a `moe` block in `block_configs`), its model
    type has none by default, and its architecture is not a
    mixture-of-experts class.

    ## Why
    Expert parallelism spreads MoE experts over the ranks; a dense model has
    none. vLLM stops with "Number of experts in the model must be greater
    than 0 when expert parallelism is enabled."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 2 --enable-expert-parallel
    ```

    ## Fix
    Remove `--enable-expert-parallel`.


    ## Fix safety
    Unsafe: removing `--enable-expert-parallel` changes how the launch runs.
    ## vLLM source
    `ModelConfig._verify_with_expert_parallelism`, vllm/config/model.py:
    0.25.0:1163, 0.26.0:1181, 0.27.x:1266, 0.28.0:1318, 0.29.0:1364,
    0.30.0:1377, 0.31.0:1455, 0.32.0:1489, 0.33.0:1502; `is_moe` is
    `get_num_experts() > 0` (model_arch_config_convertor.py 0.33.0:179).
    """

    code = "SL306"
    fixes = frozenset({Applicability.UNSAFE})
    vllm_checks = (VllmCheck("ep", "when expert parallelism is enabled.", "vllm/config/model.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "ep-requires-moe-model"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--enable-expert-parallel"
    reads = _MODEL_READS | {"enable_expert_parallel"}

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        ep = st.value_of(inv, "enable_expert_parallel")
        if ep.how != "flag" or not ep.value:
            return
        if tf.is_moe(ctx) is not False:
            return
        message = "Number of experts in the model must be greater than 0 when expert parallelism is enabled."
        flag = ep.flags[-1]
        rel = [r for r in [tf.model_note(ctx)] if r is not None]
        fix = tf.removal_fix(ctx, st.written(inv, "enable_expert_parallel"), "Remove --enable-expert-parallel")
        yield tf.finding(ctx, flag, message, "ep", note=f"{ctx.architecture} is a dense model",
                         related_to=rel, fixes=[fix] if fix else None)


class EplbWithoutExpertParallel(Rule):
    """`--enable-eplb` without `--enable-expert-parallel`.

    ## What it does
    Reports `--enable-eplb` when expert parallelism is off, on the targets
    where vLLM reaches this check (CUDA, ROCm, and XPU from 0.31.0; on other
    platforms vLLM refuses EPLB first, for the platform).

    ## Why
    EPLB rebalances experts between expert-parallel ranks. vLLM stops with
    "enable_expert_parallel must be True to use EPLB."

    ## Example
    ```sh
    vllm serve mistralai/Mixtral-8x7B-Instruct-v0.1 -tp 2 --enable-eplb
    ```

    ## Fix
    Add `--enable-expert-parallel`, or remove `--enable-eplb`.

    ## vLLM source
    `ParallelConfig._validate_parallel_config`, vllm/config/parallel.py:
    0.25.0:482, 0.26.0:481, 0.27.x/0.28.0:500, 0.29.0:521, 0.30.0:534,
    0.31.0:540, 0.32.0:566, 0.33.0:570 (after the platform check just
    above it).
    """

    code = "SL307"
    vllm_checks = (VllmCheck("eplb", "enable_expert_parallel must be True to use EPLB.", "vllm/config/parallel.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "eplb-requires-expert-parallel"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--enable-eplb"
    partners = ("--enable-expert-parallel",)
    reads = frozenset({"enable_eplb", "enable_expert_parallel"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target not in ("cuda", "rocm", "xpu"):
            return
        if ctx.target == "xpu" and not tf.at_least(ctx, "0.31.0"):
            return  # XPU joined the platforms allowed EPLB in 0.31.0
        inv = ctx.invocation
        eplb = st.value_of(inv, "enable_eplb")
        if eplb.how != "flag" or not eplb.value:
            return
        ep = st.value_of(inv, "enable_expert_parallel")
        if not ep.known or ep.value:
            return
        message = "enable_expert_parallel must be True to use EPLB."
        rel = tf.related(ctx, ep.flags, "expert parallelism turned off by {flag}")
        yield tf.finding(ctx, eplb.flags[-1], message, "eplb", related_to=rel)


class ExternalDataParallelDense(Rule):
    """External data-parallel load balancing on a dense model.

    ## What it does
    Reports `--data-parallel-rank` (or `--data-parallel-external-lb`) with
    `--data-parallel-size` above 1 when the model's config.json shows a
    dense model (see `ep-requires-moe-model` for how).

    ## Why
    vLLM's data-parallel ranks only need to coordinate for MoE models; for a
    dense model it stops with "Non-MoE models do not support external data
    parallel mode. For external load balancing, launch independent vLLM
    instances without --data-parallel-* arguments."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --data-parallel-size 2 --data-parallel-rank 0
    ```

    ## Fix
    Run independent vLLM instances behind your load balancer, without
    `--data-parallel-*` flags.

    ## vLLM source
    `EngineArgs.create_engine_config`, vllm/engine/arg_utils.py:
    0.25.0:1984, 0.26.0:2014, 0.27.x:2090, 0.28.0:2129, 0.29.0:2225,
    0.30.0:2235, 0.31.0:2356, 0.32.0:2421, 0.33.0:2462.
    """

    code = "SL308"
    vllm_checks = (VllmCheck("external_dp", "Non-MoE models do not support external data parallel mode.", "vllm/engine/arg_utils.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "external-dp-requires-moe"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--data-parallel-rank"
    partners = ("--data-parallel-size", "--data-parallel-external-lb")
    reads = _MODEL_READS | {"data_parallel_size", "data_parallel_rank", "data_parallel_external_lb"}

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        dp = st.value_of(inv, "data_parallel_size")
        if dp.how != "flag" or not tf.is_int(dp.value) or dp.value <= 1:
            return
        rank = st.value_of(inv, "data_parallel_rank")
        ext = st.value_of(inv, "data_parallel_external_lb")
        if rank.how == "flag" and rank.value is not None:
            anchor = rank.flags[-1]
        elif ext.how == "flag" and ext.value:
            anchor = ext.flags[-1]
        else:
            return
        if tf.is_moe(ctx) is not False:
            return
        message = (
            "Non-MoE models do not support external data parallel mode. For external load balancing, "
            "launch independent vLLM instances without --data-parallel-* arguments."
        )
        rel = tf.related(ctx, dp.flags, "data parallelism set by {flag}")
        yield tf.finding(ctx, anchor, message, "external_dp", note=f"{ctx.architecture} is a dense model",
                         related_to=rel)


class MicrobatchingAllToAll(Rule):
    """DBO / microbatching without a DeepEP or NIXL all-to-all backend.

    ## What it does
    Reports `--enable-dbo` or `--ubatch-size` above 1 when
    `--all2all-backend` is not `deepep_low_latency`,
    `deepep_high_throughput` or `nixl_ep` (the default is
    `allgather_reducescatter`; `naive` and `pplx` become it). From 0.33.0
    ROCm also accepts `allgather_reducescatter`. On a `cpu` target vLLM
    turns DBO off, so only `--ubatch-size` counts there; other targets are
    not judged.

    ## Why
    vLLM asserts this while building its config: "Microbatching currently
    only supports the deepep_low_latency, deepep_high_throughput, nixl_ep
    all2all backends on this platform. ..."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --enable-expert-parallel --enable-dbo
    ```

    ## Fix
    Add `--all2all-backend deepep_low_latency` (or `deepep_high_throughput`
    / `nixl_ep`) and install its kernels, or remove `--enable-dbo`.

    ## vLLM source
    `VllmConfig.__post_init__`, vllm/config/vllm.py: 0.25.0:1468,
    0.26.0:1538, 0.27.x:1577, 0.28.0:1688, 0.29.0:1740, 0.30.0:1941,
    0.31.0:2188, 0.32.0:2111 (one message for every platform), 0.33.0:2199
    (per platform); `ParallelConfig.use_ubatching` is `enable_dbo or
    ubatch_size > 1` (config/parallel.py 0.33.0:645); CPU turns
    `enable_dbo` off in `CpuPlatform.check_and_update_config`
    (platforms/cpu.py 0.28.0:190, 0.33.0:365).
    """

    code = "SL324"
    vllm_checks = (VllmCheck("dbo", "Microbatching currently only supports the", "vllm/config/vllm.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "dbo-requires-deepep-a2a"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--all2all-backend"
    partners = ("--enable-dbo", "--ubatch-size")
    reads = frozenset({"enable_dbo", "ubatch_size", "all2all_backend"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target not in ("cuda", "rocm", "cpu"):
            return
        inv = ctx.invocation
        dbo = st.value_of(inv, "enable_dbo")
        ub = st.value_of(inv, "ubatch_size")
        if not dbo.known or not ub.known:
            return
        triggers = []
        if dbo.value and ctx.target != "cpu":
            triggers.extend(dbo.flags)
        if tf.is_int(ub.value) and ub.value > 1:
            triggers.extend(ub.flags)
        if not triggers:
            return
        backend = st.value_of(inv, "all2all_backend")
        if not backend.known or not isinstance(backend.value, str):
            return
        a2a = backend.value
        if a2a in ("naive", "pplx"):
            a2a = "allgather_reducescatter"  # ParallelConfig maps them with a warning
        if tf.at_least(ctx, "0.33.0"):
            supported = ["deepep_low_latency", "deepep_high_throughput", "nixl_ep"]
            if ctx.target == "rocm":
                supported.append("allgather_reducescatter")
            if a2a in supported:
                return
            message = (
                f"Microbatching currently only supports the {', '.join(supported)} all2all backends on this "
                f"platform. {a2a} is not supported. To fix use one of "
                f"{', '.join('--all2all-backend=' + b for b in supported)} and install the matching kernels."
            )
        else:
            if a2a in ("deepep_low_latency", "deepep_high_throughput", "nixl_ep"):
                return
            message = (
                "Microbatching currently only supports the deepep_low_latency, deepep_high_throughput, "
                f"and nixl_ep all2all backends. {a2a} is not supported. To fix use "
                "--all2all-backend=deepep_low_latency, --all2all-backend=deepep_high_throughput, or "
                "--all2all-backend=nixl_ep and install the matching kernels."
            )
        anchor = backend.flags[-1] if backend.how == "flag" and backend.flags else triggers[-1]
        rel = tf.related(ctx, [f for f in triggers if f is not anchor], "microbatching turned on by {flag}")
        note = "" if backend.how == "flag" else "the default all2all backend is allgather_reducescatter"
        yield tf.finding(ctx, anchor, message, "dbo", note=note, related_to=rel)
