"""SL520: DBO token thresholds below the number of microbatches."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of, known_flag, switch
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("parallel.dbo_thresholds", "dbo_decode_token_threshold and dbo_prefill_token_threshold must",
                   "vllm/config/parallel.py")


class DboThresholdsBelowMicrobatches(Rule):
    """A DBO token threshold smaller than the number of microbatches.

    ## What it does
    Reports `--dbo-decode-token-threshold` or `--dbo-prefill-token-threshold`
    below the number of microbatches, when microbatching is on
    (`--enable-dbo`: 2 microbatches; `--ubatch-size` N above 1: N).

    ## Why
    A batch is split only above the threshold; a batch of fewer tokens than
    microbatches cannot be split. `ParallelConfig._verify_args` stops with
    "dbo_decode_token_threshold and dbo_prefill_token_threshold must be at
    least the number of microbatches (2)."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --enable-expert-parallel --data-parallel-size 2 \\
        --all2all-backend deepep_low_latency --enable-dbo --dbo-decode-token-threshold 1
    ```

    ## Fix
    Raise the threshold to at least the number of microbatches (the
    defaults are 32 and 512).

    ## Evidence
    The flags as written and the release's defaults.

    ## vLLM source
    `ParallelConfig._verify_args`, before `VllmConfig` checks the all-to-all
    backend of microbatching (`dbo-requires-deepep-a2a`, SL324).
    """

    code = "SL520"
    name = "dbo-thresholds-below-ubatches"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--dbo-decode-token-threshold"
    partners = ("--enable-dbo", "--ubatch-size")
    requires = ("--dbo-decode-token-threshold", "--enable-dbo", "--ubatch-size")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        decode_flag = known_flag(inv, "dbo_decode_token_threshold")
        prefill_flag = known_flag(inv, "dbo_prefill_token_threshold")
        if decode_flag is None and prefill_flag is None:
            return
        dbo = switch(inv, "enable_dbo")
        ubatch = int_of(inv, "ubatch_size")
        if dbo is None or not ubatch.known:
            return
        if not (dbo or ubatch.value > 1):
            return
        count = 2 if dbo else ubatch.value
        decode, prefill = int_of(inv, "dbo_decode_token_threshold"), int_of(inv, "dbo_prefill_token_threshold")
        if not (decode.known and prefill.known) or min(decode.value, prefill.value) >= count:
            return
        anchor = decode_flag if decode.value < count and decode_flag is not None else (prefill_flag or decode_flag)
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key, count), _CHECK.key)
