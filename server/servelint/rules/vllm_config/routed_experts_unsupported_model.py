"""SL601: routed-experts output with a pooling runner or a dense model."""

from __future__ import annotations

from ...derive.flags import value_of
from ...derive.model import is_moe
from ..base import model_note, related
from ._shared import RoutedExpertsRule, checks, report


class RoutedExpertsUnsupportedModel(RoutedExpertsRule):
    """`--enable-return-routed-experts` with a pooling runner or a model without experts.

    ## What it does
    Reports `--enable-return-routed-experts` (or `--aux-output-config`
    `enable_return_routed_experts`) together with `--runner pooling`, or on
    a model whose config.json has no experts (a dense model).

    ## Why
    Returning the routed experts records which experts each token went to:
    it needs a generating MoE model. vLLM stops while building its config:
    "AuxOutput Connector only supports generate runners." or "AuxOutput
    Connector only supports MoE models."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --enable-return-routed-experts
    ```

    ## Fix
    Drop `--enable-return-routed-experts`, or serve a MoE model with the
    generate runner.

    ## Evidence
    `--runner` as written (servelint does not judge the runner vLLM picks
    for `auto`), and the expert count of the model's config.json (the keys
    vLLM reads: `num_experts`, `n_routed_experts`, `num_local_experts`, ...).
    An unknown model, or a model type vLLM gives experts by default, leaves
    the rule silent.

    ## vLLM source
    `VllmConfig._verify_aux_output_compatibility` (vllm/config/vllm.py).
    """

    code = "SL601"
    name = "routed-experts-unsupported-model"
    vllm_checks = checks("aux_generate", "aux_moe")

    def problems(self, ctx, on):
        anchor = on.flags[-1]
        runner = value_of(ctx.invocation, "runner")
        if runner.how == "flag" and runner.value == "pooling":
            yield report(ctx, anchor, "aux_generate", note="--runner pooling",
                         related_to=related(ctx, runner.flags, "pooling runner chosen here"))
        if is_moe(ctx) is False:
            # is_moe reads the config.json itself: never an inferred architecture.
            yield report(ctx, anchor, "aux_moe", note="the model's config.json has no experts",
                         related_to=[n for n in (model_note(ctx),) if n is not None])

