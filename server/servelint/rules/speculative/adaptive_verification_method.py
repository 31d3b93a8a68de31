"""SL415: adaptive verification with a method other than DSpark (with local argmax reduction from 0.30.0)."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import key_finding, speculative_written

_PATH = "vllm/config/speculative.py"
_DSPARK_ONLY = VllmCheck("speculative.adaptive_dspark_only", "Adaptive verification only supported with DSpark", _PATH)
_ARGMAX = VllmCheck("speculative.adaptive_local_argmax", "which use_local_argmax_reduction never materializes", _PATH)


class AdaptiveVerificationMethod(Rule):
    """`enable_adaptive_verification` with a method other than DSpark.

    ## What it does
    Reports `enable_adaptive_verification: true` in a speculative config
    whose method is not `dspark`: in 0.28.0 and 0.29.0 always, from 0.30.0
    when `use_local_argmax_reduction` is on as well.

    ## Why
    Adaptive verification sizes the verification budget from the draft's
    per-position confidence. vLLM 0.28.0-0.29.0 offers it for DSpark only
    ("Adaptive verification only supported with DSpark"); later releases
    estimate the confidence from the draft logits, which local argmax
    reduction never builds: "Adaptive verification estimates per-position
    acceptance from the draft logits, which use_local_argmax_reduction
    never materializes. Disable one of them."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "ngram", "num_speculative_tokens": 3,
        "enable_adaptive_verification": true, "use_local_argmax_reduction": true}'
    ```

    ## Fix
    Turn one of the two off (or use adaptive verification with DSpark).

    ## Evidence
    The speculative config as written; for a `model` without `method`, the
    draft's name or config.json decides the method.

    ## vLLM source
    `SpeculativeConfig.__post_init__`, its last check.
    """

    code = "SL415"
    name = "adaptive-verification-method"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_DSPARK_ONLY, _ARGMAX)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.fails is not None or p.args.get("enable_adaptive_verification") is not True:
            return
        # Without a model nor a token count nothing is detected: the method is the inferred one.
        method = p.method
        if method is None or method == "dspark":
            return
        if validators.has(_DSPARK_ONLY.key, ctx.version):
            yield key_finding(ctx, p.args, "enable_adaptive_verification", _DSPARK_ONLY.needle, _DSPARK_ONLY.key,
                          note=f"the method is {method!r}")
        elif validators.has(_ARGMAX.key, ctx.version) and p.args.get("use_local_argmax_reduction") is True:
            message = ("Adaptive verification estimates per-position acceptance from the draft logits, which "
                       "use_local_argmax_reduction never materializes. Disable one of them.")
            yield key_finding(ctx, p.args, "enable_adaptive_verification", message, _ARGMAX.key,
                          note=f"the method is {method!r}")
