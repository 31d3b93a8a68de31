"""SL305: `--pipeline-parallel-size` above 1 for a model without pipeline parallelism."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import last_flag, value_of, written
from ...derive.model import arch_facts
from ...diagnostics import Applicability, Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, inferred_architecture, removal_fix


class PipelineParallelUnsupported(Rule):
    """`--pipeline-parallel-size` above 1 for a model without pipeline parallelism.

    ## What it does
    Reports `-pp N` (N > 1) when the model's architecture, in this vLLM
    release, does not implement the `SupportsPP` interface (Mamba, Mamba2,
    many encoder and multimodal models...).

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

    ## Evidence
    A written `-pp` and the model's architecture: from its config.json, else
    servelint's table of known model ids; its `supports_pp` comes from the
    release's generated model registry. An architecture only inferred from
    the model's name makes it a warning that says so; a name the table maps
    to several architectures, `--model-impl`, `--runner` or `--convert`
    (another model class may be loaded) make it silent.

    ## vLLM source
    `ModelConfig.verify_with_parallel_config`
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
    requires = ("--convert", "--hf-overrides", "--model-impl", "--pipeline-parallel-size", "--runner")
    reads = frozenset({"model", "hf_overrides", "pipeline_parallel_size", "model_impl", "runner", "convert"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        flag = last_flag(inv, "pipeline_parallel_size")
        pp = value_of(inv, "pipeline_parallel_size")
        if flag is None or pp.how != "flag" or not is_int(pp.value) or pp.value <= 1:
            return
        if any(written(inv, d) for d in ("model_impl", "runner", "convert")):
            return  # another model class may be loaded
        arch = arch_facts(ctx)
        if arch is None or arch.supports_pp is not False:
            return
        model = ctx.model
        if model is not None and model.alternatives:
            return  # the table's pick is a guess among several
        message = (
            "Pipeline parallelism is not supported for this model. "
            "Supported models implement the `SupportsPP` interface."
        )
        inferred = inferred_architecture(ctx)
        severity = Severity.WARNING if inferred else None
        note = inferred or f"architecture {ctx.architecture} in vLLM {ctx.version}"
        fix = removal_fix(ctx, written(inv, "pipeline_parallel_size"), "Remove --pipeline-parallel-size")
        yield finding(ctx, flag, message, "pp", note=note, severity=severity, fixes=[fix] if fix else None)
