"""SL611: Model Runner V1 with a feature only Model Runner V2 has."""

from __future__ import annotations

from typing import Iterable

from ...derive.model_runner import runner_is_v1, v1_unsupported_features
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, vllm_message
from ._runners import runner_finding

_CHECK = VllmCheck("vllm.mrv1_unsupported", "Model Runner V1 does not support: {}", "vllm/config/vllm.py")


class Mrv1UnsupportedFeature(Rule):
    """Model Runner V1 (`VLLM_USE_V2_MODEL_RUNNER=0`, no Triton, or V2's fallback) with a feature only V2 implements.

    ## What it does
    Works out which Model Runner vLLM runs (the variable; else no Triton on
    the target means V1; else a feature of V2's "does not yet support"
    list, such as `--ubatch-size` above 1 or a speculative method V2
    lacks, makes vLLM fall back to V1) and, under V1, lists what of the
    release's "V1 does not support" list the launch turns on, as vLLM
    does: `--prefill-context-parallel-size` above 1, DSpark drafting, adaptive draft
    verification, `dflash` drafts with mixed sliding/full layers, a
    candidate head (DFlash2, LiLiCorr) or (0.33.0) an XPress refiner,
    `draft_lm_head_quantization` (0.33.0), a diffusion model
    (`canvas_length` in its config.json), `--enable-batch-sharded-sampling`,
    a Step5 model (0.33.0).

    ## Why
    These run only in Model Runner V2. vLLM stops while building its
    config: "Model Runner V1 does not support: prefill context parallel".
    A classic trap: a feature V2 lacks makes vLLM fall back to V1, which
    then refuses the V2-only feature.

    ## Example
    ```sh
    VLLM_USE_V2_MODEL_RUNNER=0 vllm serve Qwen/Qwen3-8B -pcp 2
    ```

    ## Fix
    Unset `VLLM_USE_V2_MODEL_RUNNER` (or set it to 1), drop what makes
    vLLM fall back to V1, or drop the listed feature.

    ## Evidence
    The flags, the environment the file gives the launch, the declared
    target and the model's config.json (`servelint.derive.model_runner`).
    vLLM's message lists every unsupported feature: when an entry of the
    list is not known but another holds, the rule still reports, in its
    own words ("..., and possibly more"); it is silent when no entry is
    known to hold. Entries servelint cannot decide: a flag set to a run-time
    value, a `dflash` draft whose config.json servelint does not have or
    does not follow (its KV layout, refiner and candidate head come from
    it), an `mtp` draft in 0.33.0 whose config is not at hand or is a
    Radio mBART one (Parse 3.5), a model whose config.json
    is not at hand, `-pp` above 1 with `--async-scheduling` (0.31.0+: on
    CUDA V1 refuses it, but the CPU platform turns async scheduling off
    before the check, so the oracle cannot confirm it).  Also silent when the runner is not
    known: `--enable-dbo` (the CPU platform turns it off, CUDA keeps it),
    ROCm before 0.32.0, HiSparse.  Releases before 0.29.0 have no such
    list.

    ## vLLM source
    `VllmConfig._validate_v1_model_runner`, after the platform hook in
    `__post_init__`; the list is `_get_v1_model_runner_unsupported_features`.
    """

    code = "SL611"
    name = "mrv1-unsupported-feature"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--prefill-context-parallel-size"
    requires = None

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not ctx.at_least("0.29.0"):
            return
        features = v1_unsupported_features(ctx)
        if features is None or not features.items:
            return
        v1 = runner_is_v1(ctx)
        if v1.value is not True:
            return
        message = vllm_message(ctx, _CHECK.key, ", ".join(features.items))
        if message is None:
            return
        if not features.complete:
            # vLLM refuses the launch, but its list may hold more than servelint can tell.
            message = f"{message}, and possibly more features servelint cannot decide from the file"
        note = "" if v1.how == "env" else v1.why
        yield runner_finding(ctx, _CHECK.key, message, v1, features, note, exact=features.complete)
