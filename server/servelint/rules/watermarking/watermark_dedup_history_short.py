"""SL906: Gumbel-max watermarking with context deduplication off or short (a warning)."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import watermark_config

_CHECK = VllmCheck("watermarking.dedup_history", "Gumbel-max watermarking with context deduplication",
                   "vllm/config/watermarking.py")

# _MIN_RECOMMENDED_DEDUP_HISTORY (vllm/config/watermarking.py, 1024 in 0.30.0-0.33.0).
_MIN_HISTORY = 1024


class WatermarkDedupHistoryShort(Rule):
    """Gumbel-max watermarking without enough context deduplication.

    ## What it does
    Warns when `--watermark-config` uses a Gumbel-max algorithm (`gumbel`,
    the default, or `dual_key_gumbel`) with `deduplicate_contexts` set to
    `none` or `deduplicate_contexts_max_history` below 1024.

    ## Why
    Gumbel-max sampling is deterministic for a given context: without
    skipping repeated contexts the model can fall into repetition loops.
    vLLM logs "Gumbel-max watermarking with context deduplication disabled
    or limited to fewer than 1024 positions may increase the frequency of
    degenerate generations, including repetition loops. ..." and starts.

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --watermark-config '{"key": 1, "deduplicate_contexts": "none"}'
    ```

    ## Fix
    Keep `deduplicate_contexts` at `single_turn` (the default) or `all`,
    with `deduplicate_contexts_max_history` at least 1024 or null.

    ## Evidence
    The JSON as written (dotted keys merged); a value servelint cannot
    read, or a key above 64 bits (SL905, an error first), keeps the rule
    silent.

    ## vLLM source
    `WatermarkConfig.validate_watermark_settings` (a `logger.warning_once`).
    """

    code = "SL906"
    name = "watermark-dedup-history-short"
    category = Category.CONFIG
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--watermark-config"
    requires = ("--watermark-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        cfg = watermark_config(ctx)
        if cfg is None or cfg.value["key"] > 2**64 - 1:
            return
        obj = cfg.value
        if obj.get("algorithm", "gumbel") not in ("gumbel", "dual_key_gumbel"):
            return
        scope = obj.get("deduplicate_contexts", "single_turn")
        history = obj.get("deduplicate_contexts_max_history", 8192)
        short = is_int(history) and history < _MIN_HISTORY
        if scope != "none" and not short:
            return
        yield finding(ctx, cfg.flags[-1], vllm_message(ctx, _CHECK.key, _MIN_HISTORY, _MIN_HISTORY), _CHECK.key)
