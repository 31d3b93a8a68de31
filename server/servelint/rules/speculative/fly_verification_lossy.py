"""SL432: FLy verification, which vLLM warns is lossy."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import final_tokens, int_key, key_finding, settled_method, speculative_written

_CHECK = VllmCheck(
    "speculative.fly_lossy", "FLy verification is a lossy speculative decoding method and may degrade model outputs.",
    "vllm/config/speculative.py",
)


class FlyVerificationLossy(Rule):
    """`rejection_sample_method: fly`: speculative decoding that may change the model's outputs.

    ## What it does
    Warns about a speculative config whose `rejection_sample_method` is
    `fly` (when vLLM accepts it: see fly-verification-invalid).

    ## Why
    Standard rejection sampling keeps the target model's output
    distribution exactly; FLy accepts some draft tokens the target would
    not have produced. vLLM logs "FLy verification is a lossy speculative
    decoding method and may degrade model outputs." and continues.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config '{"method": "ngram", "num_speculative_tokens": 4, "rejection_sample_method": "fly"}'
    ```

    ## Fix
    Use `standard` (the default) where outputs must match the model's, or
    keep FLy after measuring the quality of its outputs.

    ## Evidence
    The speculative config as written.

    ## vLLM source
    `SpeculativeConfig._verify_args`, after the FLy checks.
    """

    code = "SL432"
    name = "fly-verification-lossy"
    category = Category.INCOMPATIBLE
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.args.get("rejection_sample_method") != "fly":
            return
        n = final_tokens(p)
        method = settled_method(p)
        if n is None or n < 2 or method is None or method == "extract_hidden_states":
            return
        window = int_key(p.args, "fly_window_size")
        if window is not None and window >= n:
            return
        yield key_finding(ctx, p.args, "rejection_sample_method", _CHECK.needle, _CHECK.key)
