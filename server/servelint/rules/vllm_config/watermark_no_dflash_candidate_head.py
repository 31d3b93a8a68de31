"""SL613: watermarking with a DFlash2 or LiLiCorr candidate-head draft."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_of, written
from ...derive.model_runner import dflash_draft
from ...knowledge.validators import VllmCheck
from ...values import effective
from ..base import Context, Finding, finding, related, vllm_message
from ._shared import VllmConfigRule

_CHECK = VllmCheck("vllm.watermark_dflash_candidate",
                   "Watermarking does not support DFlash2 and LiLiCorr candidate-head drafters yet.",
                   "vllm/config/vllm.py")


class WatermarkNoDflashCandidateHead(VllmConfigRule):
    """`--watermark-config` with a DFlash draft that has a candidate head (DFlash2, LiLiCorr).

    ## What it does
    Reports the speculative config when `--watermark-config` is set and the
    speculative method is `dflash` with a draft whose architecture (as
    vLLM renames it for DFlash) is `DFlash2DraftModel`,
    `DFlash2BeamDraftModel` or `LiLiCorrDraftModel`.

    ## Why
    The watermark is applied where draft tokens are sampled; the candidate
    head of these drafters picks tokens another way. vLLM stops while
    building its config: "Watermarking does not support DFlash2 and
    LiLiCorr candidate-head drafters yet."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --watermark-config '{"key": 1}' \\
        --speculative-config '{"method": "dflash", "model": "org/qwen3-dflash2-draft", "num_speculative_tokens": 3, "draft_sample_method": "probabilistic"}'
    ```

    ## Fix
    Use a DFlash draft without a candidate head, another drafter
    (DSpark, EAGLE, MTP), or drop watermarking.

    ## Evidence
    Both configs as written and the draft's config.json. Silent when the
    method is derived from the draft and not settled, or the draft's
    config is not at hand (or is in the speculators format, which
    servelint does not follow). The watermark checks before this one
    (`draft_sample_method`, `rejection_sample_method`, the method) are
    SL607's.

    ## vLLM source
    `VllmConfig._check_supports_watermarking` (0.33.0).
    """

    code = "SL613"
    name = "watermark-no-dflash-candidate-head"
    vllm_checks = (_CHECK,)
    anchor = "--speculative-config"
    partners = ("--watermark-config",)
    requires = ("--watermark-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if not written(inv, "watermark_config") or effective(inv, "watermark_config") is None:
            return
        wm = json_of(inv, "watermark_config")
        if not wm.known or not wm.flags:
            return
        draft = dflash_draft(ctx)
        if draft is None or not draft.flags or not draft.candidate(ctx.version):
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        yield finding(ctx, draft.flags[-1], message, _CHECK.key,
                      related_to=related(ctx, wm.flags[-1:], "watermarking configured by {flag}"))
