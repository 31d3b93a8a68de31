"""SL353: pipeline parallelism for an AliceAI model."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, vllm_message
from ._hooks import hook_class, pipeline_flag

_CHECK = VllmCheck("model.aliceai_no_pp",
                   "AliceAI does not support pipeline parallelism; pipeline_parallel_size=1 is required",
                   "vllm/model_executor/models/config.py", whole=True)


class AliceaiNoPp(Rule):
    """`--pipeline-parallel-size` other than 1 for an AliceAI model.

    ## What it does
    Reports a `--pipeline-parallel-size` other than 1 when the model is
    `AliceAIForCausalLM`.

    ## Why
    vLLM's config hook for AliceAI stops with "AliceAI does not support
    pipeline parallelism; pipeline_parallel_size=1 is required".

    ## Example
    ```sh
    vllm serve ./alice-ai -pp 2
    ```

    ## Fix
    Use `--pipeline-parallel-size 1` (scale out with tensor or data
    parallelism instead).

    ## Evidence
    The written pipeline-parallel size and the model's config.json: one
    architecture the release's `MODELS_CONFIG_MAP` maps to
    `AliceAIForCausalLMConfig`. Silent with `--hf-overrides` or
    `--model-impl`. The oracle's environment cannot inspect
    `AliceAIForCausalLM`, so this rule has a golden case only.

    ## vLLM source
    `AliceAIForCausalLMConfig.verify_and_update_config`.
    """

    code = "SL353"
    name = "aliceai-no-pp"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--pipeline-parallel-size"
    requires = ("--pipeline-parallel-size",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        pp = pipeline_flag(ctx)
        if pp is None or pp[0] == 1:
            return
        if hook_class(ctx) != "AliceAIForCausalLMConfig":
            return
        rel = [r for r in [model_note(ctx)] if r is not None]
        yield finding(ctx, pp[1], vllm_message(ctx, _CHECK.key), _CHECK.key, related_to=rel)
