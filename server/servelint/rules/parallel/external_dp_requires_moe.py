"""SL308: external data-parallel load balancing on a dense model."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import value_of
from ...derive.model import is_moe
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related


class ExternalDataParallelDense(Rule):
    """External data-parallel load balancing on a dense model.

    ## What it does
    Reports `--data-parallel-rank` (or `--data-parallel-external-lb`) with
    `--data-parallel-size` above 1 when the model's config.json shows a
    dense model (see `ep-requires-moe-model` for how).

    ## Why
    vLLM's data-parallel ranks only need to coordinate for MoE models; for a
    dense model it stops with "Non-MoE models do not support external data
    parallel mode. For external load balancing, launch independent vLLM
    instances without --data-parallel-* arguments."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --data-parallel-size 2 --data-parallel-rank 0
    ```

    ## Fix
    Run independent vLLM instances behind your load balancer, without
    `--data-parallel-*` flags.

    ## Evidence
    The written data-parallel flags and the model's config.json, as for
    `ep-requires-moe-model` (silent when the model may have experts).

    ## vLLM source
    `EngineArgs.create_engine_config`.
    """

    code = "SL308"
    vllm_checks = (VllmCheck("external_dp", "Non-MoE models do not support external data parallel mode.",
                             "vllm/engine/arg_utils.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "external-dp-requires-moe"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--data-parallel-rank"
    partners = ("--data-parallel-size", "--data-parallel-external-lb")
    requires = ("--data-parallel-external-lb", "--data-parallel-rank", "--data-parallel-size", "--hf-overrides")
    reads = frozenset({"model", "hf_overrides", "data_parallel_size", "data_parallel_rank", "data_parallel_external_lb"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        dp = value_of(inv, "data_parallel_size")
        if dp.how != "flag" or not is_int(dp.value) or dp.value <= 1:
            return
        rank = value_of(inv, "data_parallel_rank")
        ext = value_of(inv, "data_parallel_external_lb")
        if rank.how == "flag" and rank.value is not None:
            anchor = rank.flags[-1]
        elif ext.how == "flag" and ext.value:
            anchor = ext.flags[-1]
        else:
            return
        if is_moe(ctx) is not False:
            return
        message = (
            "Non-MoE models do not support external data parallel mode. For external load balancing, "
            "launch independent vLLM instances without --data-parallel-* arguments."
        )
        rel = related(ctx, dp.flags, "data parallelism set by {flag}")
        yield finding(ctx, anchor, message, "external_dp", note=f"{ctx.architecture} is a dense model",
                      related_to=rel)
