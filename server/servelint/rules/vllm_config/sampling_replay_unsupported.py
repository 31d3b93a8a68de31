"""SL605: sampling distribution replay with speculative decoding, a diffusion model or logits processors."""

from __future__ import annotations

from ...derive.flags import value_of
from ...derive.model import model_config
from ...derive.speculative import speculation, speculative_args
from ..base import model_note
from ._shared import SamplingReplayRule, checks, has, report


class SamplingReplayUnsupported(SamplingReplayRule):
    """`--return-sampling-mask` with speculative decoding, a diffusion model or custom logits processors.

    ## What it does
    Reports `--return-sampling-mask` (sampling distribution replay) together
    with:

    * up to 0.31.0, any speculative decoding; from 0.32.0,
      `enable_adaptive_verification: true` in the speculative config;
    * a diffusion model (its config.json sets `canvas_length`);
    * `--logits-processors`.

    ## Why
    The sampling mask records the nucleus each token was sampled from; vLLM
    cannot record it across changing verification boundaries, a diffusion
    canvas or a custom processor's edits, and stops while building its
    config ("sampling distribution replay does not support custom logits
    processors", ...).

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs \\
        --logits-processors my_pkg.MyProcessor
    ```

    ## Fix
    Drop `--return-sampling-mask`, or the other setting.

    ## Evidence
    The flags as written and the model's config.json.

    ## vLLM source
    `VllmConfig._verify_sampling_replay_config` (vllm/config/vllm.py).
    """

    code = "SL605"
    name = "sampling-replay-unsupported"
    vllm_checks = checks("sampling_spec", "sampling_adaptive", "sampling_diffusion", "sampling_lp")

    def problems(self, ctx, on):
        here = self.here(ctx, on)
        out = []
        if has(ctx, "sampling_spec"):
            spec = speculation(ctx.invocation)
            if spec.active and spec.flags:
                out.append(report(ctx, spec.flags[-1], "sampling_spec", related_to=here))
        elif has(ctx, "sampling_adaptive"):
            s = speculative_args(ctx)
            if s is not None and s.get("enable_adaptive_verification") is True:
                out.append(report(ctx, s.anchor, "sampling_adaptive", related_to=here))
        cfg = model_config(ctx)
        if cfg is not None and cfg.get("canvas_length") is not None:
            note = "the model's config.json sets canvas_length"
            out.append(report(ctx, on.flags[-1], "sampling_diffusion", note=note,
                              related_to=[n for n in (model_note(ctx),) if n is not None]))
        lp = value_of(ctx.invocation, "logits_processors")
        if lp.how == "flag" and lp.value and lp.flags:
            out.append(report(ctx, lp.flags[-1], "sampling_lp", related_to=here))
        return out
