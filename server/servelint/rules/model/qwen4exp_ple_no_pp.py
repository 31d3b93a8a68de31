"""SL350: pipeline parallelism for a Qwen4Exp model with N-gram PLE embeddings."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, vllm_message
from ._hooks import pipeline_flag, qwen4exp_text, uses_ple

_CHECK = VllmCheck("model.qwen4exp_ple_no_pp", "Qwen4Exp N-gram PLE embedding requires pipeline_parallel_size=1 ",
                   "vllm/model_executor/models/config.py")


class Qwen4expPleNoPp(Rule):
    """`--pipeline-parallel-size` above 1 for a Qwen4Exp model with PLE layers.

    ## What it does
    Reports a `--pipeline-parallel-size` above 1 when the model is a
    Qwen4Exp model (`Qwen4ExpForCausalLM`, `Qwen4ExpForConditionalGeneration`,
    `Qwen4ExpMTP`) whose text config lists `ple_layer_ids`.

    ## Why
    The N-gram PLE embedding reads the raw `input_ids`, which the ranks
    after the first pipeline stage never receive; vLLM's config hook for
    Qwen4Exp stops with "Qwen4Exp N-gram PLE embedding requires
    pipeline_parallel_size=1 because non-first pipeline ranks do not
    receive the raw input_ids it needs. Please run with PP=1."

    ## Example
    ```sh
    vllm serve ./qwen4-exp-ple -pp 2
    ```

    ## Fix
    Use `--pipeline-parallel-size 1` (scale out with tensor or data
    parallelism instead).

    ## Evidence
    The written pipeline-parallel size and the model's config.json: one
    architecture the release's `MODELS_CONFIG_MAP` maps to a Qwen4Exp hook
    and a non-empty `ple_layer_ids` in its text config. Silent with
    `--hf-overrides` or `--model-impl`. The oracle's environment cannot
    inspect the Qwen4Exp architectures, so this rule has a golden case
    only.

    ## vLLM source
    `Qwen4ExpForConditionalGenerationConfig.verify_and_update_config`.
    """

    code = "SL350"
    name = "qwen4exp-ple-no-pp"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--pipeline-parallel-size"
    requires = ("--pipeline-parallel-size",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        pp = pipeline_flag(ctx)
        if pp is None or pp[0] <= 1:
            return
        text = qwen4exp_text(ctx)
        if text is None or uses_ple(text) is not True:
            return
        rel = [r for r in [model_note(ctx)] if r is not None]
        yield finding(ctx, pp[1], vllm_message(ctx, _CHECK.key), _CHECK.key, related_to=rel)
