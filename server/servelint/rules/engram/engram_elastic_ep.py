"""SL915: Engram table sharing across data-parallel ranks with elastic EP."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of, switch, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import engram_config, has_engram_layers, storage_problem

_SHARED = VllmCheck("engram.shared_memory_elastic_ep", "dp_shared_memory is not supported with elastic EP.",
                    "vllm/config/engram.py")
_ACROSS = VllmCheck("engram.across_dp_elastic_ep", "Engram embedding_across_dp is not supported with elastic EP",
                    "vllm/config/engram.py")


class EngramElasticEp(Rule):
    """`--engram-config` sharing tables across data-parallel ranks with `--enable-elastic-ep`.

    ## What it does
    Reports `"dp_shared_memory": true` or `"embedding_across_dp": true` in
    `--engram-config` on a launch with `--enable-elastic-ep` and
    `--data-parallel-size` above 1, for a model with Engram embeddings.

    ## Why
    Elastic EP adds and removes data-parallel ranks at run time; tables
    shared between replicas of a node, or sharded across all DP ranks,
    would have to move with them. `EngramConfig.verify_parallel_config`
    stops the launch: "dp_shared_memory is not supported with elastic EP."
    or "Engram embedding_across_dp is not supported with elastic EP yet."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V4.1 -dp 2 --enable-expert-parallel --enable-eplb \
      --enable-elastic-ep --engram-config '{"embedding_across_dp": true}'
    ```

    ## Fix
    Drop `dp_shared_memory` / `embedding_across_dp` (vLLM then keeps one
    private table per replica), or run without elastic EP.

    ## Evidence
    The JSON as written, `--enable-elastic-ep` and `--data-parallel-size`
    as written, the model's layer ids from its config.json. With one
    data-parallel rank vLLM reports SL910 first. Elastic EP's own
    requirements (EPLB, expert parallelism; SL5xx) are checked earlier by
    `ParallelConfig`; the CPU oracle stops at EPLB's platform check, so the
    rule has a golden case only.

    ## vLLM source
    `EngramConfig.verify_parallel_config`.
    """

    code = "SL915"
    name = "engram-elastic-ep"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_SHARED, _ACROSS)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--engram-config"
    partners = ("--enable-elastic-ep", "--data-parallel-size")
    requires = ("--engram-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        cfg = engram_config(ctx)
        if cfg is None or storage_problem(ctx, cfg.value):
            return
        shared = cfg.value.get("dp_shared_memory") is True
        across = cfg.value.get("embedding_across_dp") is True
        if not (shared or across):
            return
        elastic = value_of(inv, "enable_elastic_ep")
        if elastic.how != "flag" or switch(inv, "enable_elastic_ep") is not True:
            return
        dp = int_of(inv, "data_parallel_size")
        if dp.how == "unknown" or dp.value <= 1:
            return  # SL910 (dp_shared_memory), or embedding_across_dp is fine
        if has_engram_layers(ctx) is not True:
            return
        check = _SHARED if shared else _ACROSS
        yield finding(ctx, cfg.flags[-1], vllm_message(ctx, check.key), check.key,
                      related_to=related(ctx, elastic.flags, "elastic EP turned on by {flag}"))
