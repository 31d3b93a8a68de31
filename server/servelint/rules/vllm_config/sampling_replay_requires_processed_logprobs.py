"""SL606: sampling distribution replay without --logprobs-mode processed_logprobs."""

from __future__ import annotations

from ...derive.flags import value_of
from ._shared import SamplingReplayRule, checks, report


class SamplingReplayRequiresProcessedLogprobs(SamplingReplayRule):
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
    vllm_checks = checks("sampling_logprobs")

    def problems(self, ctx, on):
        mode = value_of(ctx.invocation, "logprobs_mode")
        if not mode.known or mode.value == "processed_logprobs":
            return
        if mode.how == "flag" and mode.flags:
            yield report(ctx, mode.flags[-1], "sampling_logprobs", related_to=self.here(ctx, on))
        else:
            yield report(ctx, on.flags[-1], "sampling_logprobs", note=f"--logprobs-mode defaults to {mode.value}")
