"""SL904: `--offload-prefetch-step 0` with prefetch offloading."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import prefetch_group

_CHECK = VllmCheck("offload.prefetch_step", "must be >= 1 when prefetch offloading is enabled",
                   "vllm/config/offload.py")


class OffloadPrefetchStepZero(Rule):
    """`--offload-prefetch-step 0` while prefetch offloading is on.

    ## What it does
    Reports `--offload-prefetch-step 0` when prefetch offloading is on
    (`--offload-group-size` above 0) and `--offload-num-in-group` fits the
    group.

    ## Why
    The prefetch step is how many layers ahead the weights are copied to
    the GPU; with 0 nothing is prefetched. The field accepts 0, but
    `OffloadConfig` stops the launch: "offload_prefetch_step (0) must be
    >= 1 when prefetch offloading is enabled (offload_group_size > 0)".

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --offload-group-size 2 --offload-prefetch-step 0
    ```

    ## Fix
    Use `--offload-prefetch-step 1` (the default) or more, or drop it.

    ## Evidence
    The options as written or defaulted. When `--offload-num-in-group`
    exceeds the group size vLLM reports that first (SL903) and this rule
    stays silent.

    ## vLLM source
    `OffloadConfig.validate_offload_config`, after the group-size check.
    """

    code = "SL904"
    name = "offload-prefetch-step-zero"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--offload-prefetch-step"
    partners = ("--offload-group-size", "--offload-backend")
    requires = ("--offload-prefetch-step",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        step = int_of(inv, "offload_prefetch_step")
        if step.how != "flag" or step.value >= 1:
            return
        on = prefetch_group(ctx)
        if on is None:
            return
        size, backend = on
        num = int_of(inv, "offload_num_in_group")
        if num.how == "unknown" or num.value > size.value:
            return  # SL903 fires first
        yield finding(ctx, step.flags[-1], vllm_message(ctx, _CHECK.key, step.value), _CHECK.key,
                      related_to=related(ctx, [*size.flags, *backend.flags], "prefetch offloading turned on by {flag}"))
