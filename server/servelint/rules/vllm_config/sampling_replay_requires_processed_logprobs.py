"""SL606: sampling distribution replay without --logprobs-mode processed_logprobs."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule, related
from ._shared import checks, report, switched_on


class SamplingReplayRequiresProcessedLogprobs(Rule):
    """`--return-sampling-mask` without `--logprobs-mode processed_logprobs`.

    ## What it does
    Reports `--return-sampling-mask` when `--logprobs-mode` is not
    `processed_logprobs`, including when it is not written: the default is
    `raw_logprobs`, so `--return-sampling-mask` alone always fails.

    ## Why
    The returned logprobs must be normalized over the same nucleus as the
    sampling mask. vLLM stops while building its config: "sampling
    distribution replay requires logprobs_mode='processed_logprobs' so that
    returned logprobs are normalized over the same nucleus as the sampling
    mask".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --return-sampling-mask
    ```

    ## Fix
    Add `--logprobs-mode processed_logprobs`.

    ## Evidence
    The flags as written, else the release's default for `--logprobs-mode`.

    ## vLLM source
    `VllmConfig._verify_sampling_replay_config` (vllm/config/vllm.py).
    """

    code = "SL606"
    name = "sampling-replay-requires-processed-logprobs"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = checks("sampling_logprobs")
    reviewed = ("0.25.0", "0.33.0")
    requires = ("--return-sampling-mask",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        on = switched_on(ctx, "return_sampling_mask")
        if not on.value:
            return
        mode = value_of(ctx.invocation, "logprobs_mode")
        if not mode.known or mode.value == "processed_logprobs":
            return
        if mode.how == "flag" and mode.flags:
            found = report(ctx, mode.flags[-1], "sampling_logprobs",
                           related_to=related(ctx, on.flags, "sampling distribution replay requested here"))
        else:
            found = report(ctx, on.flags[-1], "sampling_logprobs", note=f"--logprobs-mode defaults to {mode.value}")
        if found is not None:
            yield found
