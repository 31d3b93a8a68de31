"""SL381: `--max-num-batched-tokens` above `max_num_seqs * max_model_len` (a warning)."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import defaults_unknown, value_of
from ...derive.model import max_model_len
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related

_CHECK = VllmCheck("scheduler.tokens_exceed_seqs_times_len", "exceeds max_num_seqs * max_model_len",
                   "vllm/config/scheduler.py")


class BatchedTokensExceedSeqsTimesLen(Rule):
    """`--max-num-batched-tokens` larger than `--max-num-seqs` times `max_model_len`.

    ## What it does
    Warns when a written `--max-num-batched-tokens` exceeds the written
    `--max-num-seqs` multiplied by `max_model_len` (written, or derived from
    the model's config.json).

    ## Why
    A step can never schedule more tokens than all its sequences hold, so
    the budget above that is never used, and it sizes buffers (the encoder
    cache, CUDA-graph capture) larger than needed. vLLM logs "max_num_batched_tokens
    (8192) exceeds max_num_seqs * max_model_len (4096). This may lead to
    unexpected behavior." and starts.

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 1024 --max-num-seqs 4 --max-num-batched-tokens 8192
    ```

    ## Fix
    Lower `--max-num-batched-tokens` to at most `--max-num-seqs` x
    `max_model_len`, or raise one of those.

    ## Evidence
    Both sizes written (an unwritten one is a per-GPU default that vLLM
    caps itself) and `max_model_len` as written or derived; a value the
    file does not show keeps the rule silent.

    ## vLLM source
    `SchedulerConfig.verify_max_model_len` (a `logger.warning`).
    """

    code = "SL381"
    name = "batched-tokens-exceed-seqs-times-len"
    category = Category.CONFIG
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--max-num-batched-tokens"
    partners = ("--max-num-seqs", "--max-model-len")
    requires = ("--max-num-batched-tokens",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        tokens = value_of(inv, "max_num_batched_tokens")
        seqs = value_of(inv, "max_num_seqs")
        if tokens.how != "flag" or seqs.how != "flag" or not (is_int(tokens.value) and is_int(seqs.value)):
            return
        mml = max_model_len(ctx)
        if mml is None or (mml.how == "derived" and defaults_unknown(inv)):
            return
        limit = seqs.value * mml.value
        if tokens.value <= limit:
            return
        message = (f"max_num_batched_tokens ({tokens.value}) exceeds max_num_seqs * max_model_len ({limit}). "
                   "This may lead to unexpected behavior.")
        note = f"max_model_len {mml.value} derived from the model's config.json" if mml.how == "derived" else ""
        yield finding(ctx, tokens.flags[-1], message, _CHECK.key, note=note,
                      related_to=related(ctx, [*seqs.flags, *mml.flags], "set by {flag}"))
