"""SL407: `draft_lm_head_quantization` with a method that shares no lm_head."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import key_finding, settled_method, speculative_written

_CHECK = VllmCheck(
    "speculative.draft_lm_head_quantization_method", "draft_lm_head_quantization is not supported for method {}.",
    "vllm/config/speculative.py",
)
# The methods whose drafter shares the target's lm_head (``_verify_args``).
_SHARING = ("eagle", "eagle3", "mtp")


class DraftLmHeadQuantizationMethod(Rule):
    """`draft_lm_head_quantization` with a method other than EAGLE, EAGLE-3 or MTP.

    ## What it does
    Reports `draft_lm_head_quantization` in a speculative config whose
    method (as vLLM settles it: inferred from `model`, detected from the
    draft) is not `eagle`, `eagle3` or `mtp`, or is Gemma-4 MTP, which
    scores tied embedding rows and has no lm_head to share.

    ## Why
    The option quantizes the drafter's copy of the target's lm_head; other
    drafters have none. vLLM stops with "draft_lm_head_quantization is not
    supported for method 'ngram'."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config \\
        '{"method": "ngram", "num_speculative_tokens": 4, "draft_lm_head_quantization": "fp8"}'
    ```

    ## Fix
    Remove `draft_lm_head_quantization`, or use an EAGLE/EAGLE-3 head or MTP.

    ## Evidence
    The speculative config as written; for a `model` without `method`, the
    draft's config.json or name decides the method (silent when neither is
    at hand).

    ## vLLM source
    `SpeculativeConfig._verify_args`.
    """

    code = "SL407"
    name = "draft-lm-head-quantization-method"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        method = settled_method(p)
        if method is None or p.args.get("draft_lm_head_quantization") is None:
            return
        gemma4 = method == "mtp" and p.draft is not None and p.draft.get("model_type") == "gemma4_mtp"
        if method in _SHARING and not gemma4:
            return
        if method == "mtp" and p.draft is None:
            return
        message = f"draft_lm_head_quantization is not supported for method {method!r}."
        yield key_finding(ctx, p.args, "draft_lm_head_quantization", message, _CHECK.key)
