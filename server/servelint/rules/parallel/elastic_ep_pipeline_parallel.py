"""SL513: elastic expert parallelism with pipeline parallelism."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of, known_flag, switch
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("parallel.elastic_ep_no_pp", "Elastic EP is not supported with pipeline parallelism",
                   "vllm/config/parallel.py")


class ElasticEpPipelineParallel(Rule):
    """`--enable-elastic-ep` with `--pipeline-parallel-size` above 1.

    ## What it does
    Reports elastic expert parallelism in a launch with pipeline parallelism.

    ## Why
    Elastic EP adds and removes whole data-parallel ranks; it has no way to
    do that for pipeline stages. `ParallelConfig.__post_init__` stops with
    "Elastic EP is not supported with pipeline parallelism
    (pipeline_parallel_size=2)."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --enable-expert-parallel --enable-eplb --enable-elastic-ep -pp 2
    ```

    ## Fix
    Use tensor or data parallelism instead of `-pp`, or remove
    `--enable-elastic-ep`.

    ## Evidence
    The flags as written. Without `--enable-eplb` vLLM reports
    `elastic-ep-requires-eplb` first.

    ## vLLM source
    `ParallelConfig.__post_init__`, after the EPLB check of elastic EP.
    """

    code = "SL513"
    name = "elastic-ep-pipeline-parallel"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enable-elastic-ep"
    partners = ("--pipeline-parallel-size",)
    requires = ("--enable-elastic-ep", "--pipeline-parallel-size")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        elastic = known_flag(inv, "enable_elastic_ep")
        if elastic is None or not switch(inv, "enable_elastic_ep"):
            return
        pp = int_of(inv, "pipeline_parallel_size")
        if not pp.known or pp.value <= 1:
            return
        yield finding(ctx, elastic, vllm_message(ctx, _CHECK.key, pp.value), _CHECK.key,
                      related_to=related(ctx, pp.flags, "pipeline parallelism set by {flag}"))
