"""SL416: the speculative config's `max_model_len` above the served model's."""

from __future__ import annotations

from typing import Iterable

from ...derive.model import derived_max_len, max_model_len
from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import finding, int_key, speculative_written

_CHECK = VllmCheck(
    "speculative.max_model_len_target", "speculative_max_model_len={} cannot be larger than target_max_model_len={}",
    "vllm/config/speculative.py",
)


class SpecMaxModelLenAboveTarget(Rule):
    """`max_model_len` in the speculative config larger than the served model's maximum length.

    ## What it does
    Reports a speculative config whose `max_model_len` (the draft's maximum
    length) exceeds the served model's `max_model_len` (`--max-model-len`,
    or the length derived from its config.json), for MTP and DSpark drafts
    taken from the served model itself.

    ## Why
    Sequences longer than the target's limit never reach the draft. vLLM
    stops with "speculative_max_model_len=8192 cannot be larger than
    target_max_model_len=4096".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --max-model-len 4096 \\
        --speculative-config '{"method": "mtp", "num_speculative_tokens": 1, "max_model_len": 8192}'
    ```

    ## Fix
    Lower the speculative `max_model_len` to at most `--max-model-len`, or
    leave it out (the draft then uses the smaller of the two models' limits).

    ## Evidence
    The speculative config and `--max-model-len` as written, the served
    model's config.json. A value above the draft checkpoint's own limit is
    refused earlier by the draft's model config (as `--max-model-len` is);
    a separate draft model is not checked.

    ## vLLM source
    `SpeculativeConfig._maybe_override_draft_max_model_len`, called from
    `__post_init__` after the draft's tensor-parallel size is checked.
    """

    code = "SL416"
    name = "spec-max-model-len-above-target"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    partners = ("--max-model-len",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.branch != "draft" or not p.target_draft or p.method not in ("mtp", "dspark"):
            return
        spec_len = int_key(p.args, "max_model_len")
        if spec_len is None or spec_len < 1:
            return
        target = max_model_len(ctx)
        derived = derived_max_len(ctx)
        if target is None or derived is None or spec_len <= target.value or spec_len > derived.value:
            return
        message = f"speculative_max_model_len={spec_len} cannot be larger than target_max_model_len={target.value}"
        how = "set by --max-model-len" if target.how == "flag" else "derived from its config.json"
        yield finding(ctx, p.args, "max_model_len", message, _CHECK.key,
                      note=f"the served model's max_model_len is {target.value}, {how}")
