"""SL601: routed-experts output with a pooling runner or a dense model."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.model import is_moe
from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule, inferred_architecture, model_note, related
from ._shared import checks, report, routed_experts


class RoutedExpertsUnsupportedModel(Rule):
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
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = checks("aux_generate", "aux_moe")
    reviewed = ("0.25.0", "0.33.0")
    requires = ("--enable-return-routed-experts", "--aux-output-config")

    def check(self, ctx: Context) -> Iterable[Finding]:
        aux = routed_experts(ctx)
        if not aux.value:
            return
        anchor = aux.flags[-1]
        runner = value_of(ctx.invocation, "runner")
        if runner.how == "flag" and runner.value == "pooling":
            found = report(ctx, anchor, "aux_generate", note="--runner pooling",
                           related_to=related(ctx, runner.flags, "pooling runner chosen here"))
            if found is not None:
                yield found
        if is_moe(ctx) is False:
            note = "the model's config.json has no experts"
            inferred = inferred_architecture(ctx)
            found = report(ctx, anchor, "aux_moe", note=f"{note}; {inferred}" if inferred else note,
                           related_to=[n for n in (model_note(ctx),) if n is not None])
            if found is not None:
                if inferred:
                    found.severity = Severity.WARNING
                yield found

