"""SL610: Model Runner V2 chosen outright with a feature it does not support yet."""

from __future__ import annotations

from typing import Iterable

from ...derive.model_runner import v2_forced, v2_unsupported_features
from ...derive.runner import has_triton
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, vllm_message
from ._runners import runner_finding

_CHECK = VllmCheck("vllm.mrv2_unsupported", "Model Runner V2 does not yet support: {}", "vllm/config/vllm.py")


class Mrv2UnsupportedFeature(Rule):
    """`VLLM_USE_V2_MODEL_RUNNER=1` (or a watermark config) with a feature Model Runner V2 does not support yet.

    ## What it does
    When the launch makes vLLM run Model Runner V2 without its fallback
    (`VLLM_USE_V2_MODEL_RUNNER=1` in the launch's environment; from
    0.30.0 also `--watermark-config`; before 0.29.0, with the variable
    unset, also a feature only V2 has: `-pcp` above 1 (0.27.0+), a DSpark
    draft, some DFlash drafts, a diffusion model), lists what of the
    release's "V2 does not yet support" list the launch turns on, as vLLM
    does: pipeline parallelism with `--distributed-executor-backend
    external_launcher`, a speculative method V2 lacks (0.33.0: `suffix`,
    `custom_class`; older releases more, among them n-gram), parallel
    drafting outside DFlash/DSpark, heterogeneous-vocabulary drafts
    (0.32.0+), `--ubatch-size` above 1 with the variable unset ("dual batch
    overlap"), and in older releases stock torch.compile, elastic EP,
    custom logits processors, KV sharing fast prefill, EAGLE3 with
    pipeline parallelism, Mamba cache mode 'all', and before 0.29.0 prefill
    context parallelism on a model without MLA, routed experts capture,
    prompt embeds and an EC transfer config.

    ## Why
    With the variable unset vLLM falls back to Model Runner V1 with a
    warning; forced, it stops while building its config: "Model Runner V2
    does not yet support: pipeline parallelism with external_launcher".

    ## Example
    ```sh
    VLLM_USE_V2_MODEL_RUNNER=1 vllm serve Qwen/Qwen3-8B -pp 2 --distributed-executor-backend external_launcher
    ```

    ## Fix
    Unset `VLLM_USE_V2_MODEL_RUNNER` (vLLM then runs V1), or drop the
    listed feature.

    ## Evidence
    The flags, the environment the file gives the launch and the model's
    config.json (`servelint.derive.model_runner`).  vLLM's message lists
    every unsupported feature: when an entry of the list is not known but
    another holds, the rule still reports, in its own words ("..., and
    possibly more"); it is silent when no entry is known to hold. Entries
    servelint cannot decide: a flag set to a run-time value, tensor parallelism
    before 0.32.0 (sequence parallelism's default depends on the model's
    size), `--enable-dbo` (the CPU platform turns it off, CUDA keeps it),
    with the variable set, DBO's own list (its PIECEWISE CUDA graphs entry
    is known only with `--enforce-eager`; a multimodal model's, only for
    encoder-decoder models), a speculative method
    servelint cannot settle, adaptive verification in 0.28.0 (the final
    cudagraph mode), raw/processed logprobs modes in 0.25.0 (the runner
    type), and HiSparse (its own checks come first).

    ## vLLM source
    `VllmConfig._validate_v2_model_runner`, after the platform hook in
    `__post_init__`; the list is `_get_v2_model_runner_unsupported_features`.
    """

    code = "SL610"
    name = "mrv2-unsupported-feature"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "VLLM_USE_V2_MODEL_RUNNER"
    requires = None  # before 0.29.0 a diffusion model alone may force V2

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not ctx.at_least("0.33.0") and has_triton(ctx.target) is not True:
            return  # "Model Runner V2 requires Triton." comes first up to 0.32.0
        forced = v2_forced(ctx)
        if forced.value is not True:
            return
        features = v2_unsupported_features(ctx)
        if features is None or not features.items:
            return
        message = vllm_message(ctx, _CHECK.key, ", ".join(features.items))
        if message is None:
            return
        if not features.complete:
            # vLLM refuses the launch, but its list may hold more than servelint can tell.
            message = f"{message}, and possibly more features servelint cannot decide from the file"
        note = "" if forced.how == "env" else f"{forced.why}"
        yield runner_finding(ctx, _CHECK.key, message, forced, features, note, exact=features.complete)
