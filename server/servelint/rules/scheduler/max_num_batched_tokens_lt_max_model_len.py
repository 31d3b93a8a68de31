"""SL303: `--max-num-batched-tokens` below the model length with chunked prefill off."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import value_of
from ...derive.model import max_model_len
from ...derive.scheduler import chunked_prefill
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, related


class BatchedTokensBelowModelLen(Rule):
    """`--max-num-batched-tokens` below the model length with chunked prefill off.

    ## What it does
    Reports a written `--max-num-batched-tokens` smaller than
    `max_model_len` (the written `--max-model-len`, or the length derived
    from the model's config.json) when chunked prefill is off: turned off
    with `--no-enable-chunked-prefill`, or off for encoder-decoder models.

    ## Why
    Without chunked prefill a prompt must fit in one step, so vLLM stops
    with "max_num_batched_tokens (1024) is smaller than max_model_len
    (4096). This effectively limits the maximum sequence length to
    max_num_batched_tokens and makes vLLM reject longer sequences. ..."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --no-enable-chunked-prefill --max-num-batched-tokens 4096
    ```

    ## Fix
    Raise `--max-num-batched-tokens` to at least `max_model_len`, lower
    `--max-model-len`, or leave chunked prefill on.

    ## Evidence
    A written `--max-num-batched-tokens`, chunked prefill off (written, or
    for an encoder-decoder model) and `max_model_len`: the written
    `--max-model-len`, else the length derived from the model's config.json
    (see `max-model-len-exceeds-derived`); silent when that is not known.

    ## vLLM source
    `SchedulerConfig.verify_max_model_len`; the chunked-prefill default:
    `ModelConfig.is_chunked_prefill_supported` (vllm/config/model.py).
    """

    code = "SL303"
    vllm_checks = (VllmCheck("tokens_lt_len", "smaller than max_model_len", "vllm/config/scheduler.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "max-num-batched-tokens-lt-max-model-len"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--max-num-batched-tokens"
    partners = ("--max-model-len", "--enable-chunked-prefill")
    requires = (
        "--convert", "--disable-sliding-window", "--enable-chunked-prefill", "--hf-overrides",
        "--max-model-len", "--max-num-batched-tokens", "--runner",
    )
    reads = frozenset({"model", "hf_overrides", "max_num_batched_tokens", "max_model_len", "enable_chunked_prefill",
                       "disable_sliding_window", "runner", "convert"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        tokens = value_of(inv, "max_num_batched_tokens")
        if tokens.how != "flag" or not is_int(tokens.value):
            return
        chunked = chunked_prefill(ctx)
        if chunked.value is not False:
            return
        mml = max_model_len(ctx)
        if mml is None or tokens.value >= mml.value:
            return
        message = (
            f"max_num_batched_tokens ({tokens.value}) is smaller than max_model_len ({mml.value}). "
            "This effectively limits the maximum sequence length to max_num_batched_tokens and makes vLLM "
            "reject longer sequences. Please increase max_num_batched_tokens or decrease max_model_len."
        )
        rel = related(ctx, chunked.flags, "chunked prefill turned off by {flag}")
        rel += related(ctx, mml.flags, "max_model_len set by {flag}")
        notes = []
        if chunked.how != "flag" and chunked.why:
            notes.append(chunked.why)
        if mml.how == "derived":
            notes.append(f"max_model_len {mml.value} derived from the model's config.json")
            if (r := model_note(ctx)) is not None:
                rel.append(r)
        yield finding(ctx, tokens.flags[-1], message, "tokens_lt_len", note="; ".join(notes), related_to=rel)
