"""SL512: elastic expert parallelism without EPLB."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag, switch, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

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
    requires = ("--enable-elastic-ep", "--enable-eplb")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        elastic = known_flag(inv, "enable_elastic_ep")
        if elastic is None or not switch(inv, "enable_elastic_ep") or switch(inv, "enable_eplb") is not False:
            return
        yield finding(ctx, elastic, vllm_message(ctx, _CHECK.key), _CHECK.key,
                      related_to=related(ctx, value_of(inv, "enable_eplb").flags, "EPLB turned off by {flag}"))
