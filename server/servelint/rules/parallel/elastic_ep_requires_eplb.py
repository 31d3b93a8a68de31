"""SL512: elastic expert parallelism without EPLB."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import finding, related, switch, written

_CHECK = VllmCheck("parallel.elastic_ep_requires_eplb", "Elastic EP is only supported with enable_eplb=True.",
                   "vllm/config/parallel.py")


class ElasticEpRequiresEplb(Rule):
    """`--enable-elastic-ep` without `--enable-eplb`.

    ## What it does
    Reports `--enable-elastic-ep` in a launch that does not turn on EPLB.

    ## Why
    Elastic EP scales the data-parallel ranks up and down and moves experts
    with EPLB's machinery. `ParallelConfig.__post_init__` stops with
    "Elastic EP is only supported with enable_eplb=True."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --enable-expert-parallel --data-parallel-size 8 --enable-elastic-ep
    ```

    ## Fix
    Add `--enable-eplb` (EPLB needs `--enable-expert-parallel`), or remove
    `--enable-elastic-ep`.

    ## Evidence
    The switches as written.

    ## vLLM source
    `ParallelConfig.__post_init__`, which runs before the model validators
    of `ParallelConfig` (the EPLB platform check among them).
    """

    code = "SL512"
    name = "elastic-ep-requires-eplb"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enable-elastic-ep"
    partners = ("--enable-eplb",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        elastic = written(ctx, "enable_elastic_ep")
        if elastic is None or not switch(ctx, "enable_elastic_ep") or switch(ctx, "enable_eplb") is not False:
            return
        yield finding(ctx, elastic, _CHECK, "Elastic EP is only supported with enable_eplb=True.",
                      related_to=related(ctx, [ctx.invocation.last("enable_eplb")], "EPLB turned off by {flag}"))
