"""SL910: `--engram-config` `dp_shared_memory` without data parallelism."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import engram_config, has_engram_layers, storage_problem

_CHECK = VllmCheck("engram.shared_memory_requires_dp", "dp_shared_memory requires data_parallel_size > 1.",
                   "vllm/config/engram.py")


class EngramSharedMemoryRequiresDp(Rule):
    """`"dp_shared_memory": true` in `--engram-config` with one data-parallel rank.

    ## What it does
    Reports `"dp_shared_memory": true` written in `--engram-config` on a
    launch whose `--data-parallel-size` is 1 (the default), for a model with
    Engram embeddings.

    ## Why
    Shared memory lets the data-parallel replicas of one node share one copy
    of the embedding tables; with a single replica there is nothing to
    share. `EngramConfig.verify_parallel_config` stops the launch:
    "dp_shared_memory requires data_parallel_size > 1." Left unset, vLLM
    turns it on only where it can.

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V4.1 --engram-config '{"dp_shared_memory": true}'
    ```

    ## Fix
    Drop `dp_shared_memory` (vLLM decides), or run with
    `--data-parallel-size` above 1.

    ## Evidence
    The JSON as written, `--data-parallel-size` as written or defaulted, and
    the model's layer ids from its config.json: a model without Engram
    embeddings fails first (SL908), and an unknown model keeps the rule
    silent.

    ## vLLM source
    `EngramConfig.verify_parallel_config`, called from
    `VllmConfig._resolve_and_verify_engram_config` after the model check.
    """

    code = "SL910"
    name = "engram-shared-memory-requires-dp"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--engram-config"
    partners = ("--data-parallel-size",)
    requires = ("--engram-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        cfg = engram_config(ctx)
        if cfg is None or cfg.value.get("dp_shared_memory") is not True or storage_problem(ctx, cfg.value):
            return
        if has_engram_layers(ctx) is not True:
            return
        dp = int_of(ctx.invocation, "data_parallel_size")
        if dp.how == "unknown" or dp.value > 1:
            return
        yield finding(ctx, cfg.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key,
                      related_to=related(ctx, dp.flags, "data parallelism set by {flag}"))
