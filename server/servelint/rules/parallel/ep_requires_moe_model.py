"""SL306: `--enable-expert-parallel` on a model without experts."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of, written
from ...derive.model import is_moe
from ...diagnostics import Applicability, Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, removal_fix


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

    ## Evidence
    A written `--enable-expert-parallel` and the model's config.json (no
    `--hf-overrides`). Silent without a config.json, for heterogeneous
    configs, for model types whose config class has experts by default and
    for architectures that implement `MixtureOfExperts`.

    ## vLLM source
    `ModelConfig._verify_with_expert_parallelism`; `is_moe` is
    `get_num_experts() > 0`
    (vllm/transformers_utils/model_arch_config_convertor.py).
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
    requires = ("--enable-expert-parallel", "--hf-overrides")
    reads = frozenset({"model", "hf_overrides", "enable_expert_parallel"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        ep = value_of(inv, "enable_expert_parallel")
        if ep.how != "flag" or not ep.value:
            return
        if is_moe(ctx) is not False:
            return
        message = "Number of experts in the model must be greater than 0 when expert parallelism is enabled."
        flag = ep.flags[-1]
        rel = [r for r in [model_note(ctx)] if r is not None]
        fix = removal_fix(ctx, written(inv, "enable_expert_parallel"), "Remove --enable-expert-parallel")
        yield finding(ctx, flag, message, "ep", note=f"{ctx.architecture} is a dense model",
                      related_to=rel, fixes=[fix] if fix else None)
