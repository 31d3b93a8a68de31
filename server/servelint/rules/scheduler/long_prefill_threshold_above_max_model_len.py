"""SL380: `--long-prefill-token-threshold` above the model length."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import defaults_unknown, int_of
from ...derive.model import arch_facts, max_model_len, model_config
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, related, vllm_message

_CHECK = VllmCheck("scheduler.long_prefill_threshold", "cannot be greater than the max_model_len ({}).",
                   "vllm/config/scheduler.py")


class LongPrefillThresholdAboveMaxModelLen(Rule):
    """`--long-prefill-token-threshold` greater than the model length.

    ## What it does
    Reports a `--long-prefill-token-threshold` larger than `max_model_len`
    (`--max-model-len`, or the length vLLM derives from the model's
    config.json).

    ## Why
    A prompt counts as long when it has more tokens than the threshold; no
    prompt can be longer than `max_model_len`, so the setting would do
    nothing. `SchedulerConfig.verify_max_model_len` stops the launch:
    "long_prefill_token_threshold (2048) cannot be greater than the
    max_model_len (1024)."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 1024 --long-prefill-token-threshold 2048
    ```

    ## Fix
    Lower `--long-prefill-token-threshold` to at most `max_model_len`, or
    raise `--max-model-len`.

    From 0.27.0: before, vLLM checked it only with
    `--max-num-partial-prefills` above 1, which `EngineArgs._check_feature_supported`
    refuses first ("Concurrent Partial Prefill is not supported").

    ## Evidence
    The threshold as written and `max_model_len` as written or derived from
    the model's config.json (`derive.model.max_model_len`); an
    encoder-decoder model (vLLM sets the threshold to 0 for it), a model
    servelint cannot read or a value the file does not show keep the rule
    silent.

    ## vLLM source
    `SchedulerConfig.verify_max_model_len`, its last check (after SL303,
    SL304 and SL328).
    """

    code = "SL380"
    name = "long-prefill-threshold-above-max-model-len"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--long-prefill-token-threshold"
    partners = ("--max-model-len",)
    since = "0.27.0"
    requires = ("--long-prefill-token-threshold",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        threshold = int_of(ctx.invocation, "long_prefill_token_threshold")
        if threshold.how != "flag" or threshold.value <= 0:
            return
        arch = arch_facts(ctx)
        cfg = model_config(ctx)
        if arch is None or getattr(arch, "attn_type", None) == "encoder_decoder" or (
                cfg and cfg.get("is_encoder_decoder") is True):
            return  # unknown model, or SchedulerConfig.__post_init__ sets the threshold to 0
        mml = max_model_len(ctx)
        if mml is None or threshold.value <= mml.value:
            return
        if mml.how == "derived" and defaults_unknown(ctx.invocation):
            return  # a --config file: the command line may set --max-model-len
        rel = related(ctx, mml.flags, "max_model_len set by {flag}")
        note = ""
        if mml.how == "derived":
            note = f"max_model_len {mml.value} derived from the model's config.json"
            if (r := model_note(ctx)) is not None:
                rel.append(r)
        yield finding(ctx, threshold.flags[-1], vllm_message(ctx, _CHECK.key, threshold.value, mml.value), _CHECK.key,
                      note=note, related_to=rel)
