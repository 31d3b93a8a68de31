"""SL517: `--elastic-ep-max-dp-size` below the initial data-parallel size."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of, known_flag, switch, value_of
from ...derive.parallel import data_parallel_launch
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("parallel.elastic_ep_max_dp_size", "--elastic-ep-max-dp-size must be greater than or equal to",
                   "vllm/config/parallel.py")


class ElasticEpMaxDpSizeBelowDp(Rule):
    """`--elastic-ep-max-dp-size` smaller than `--data-parallel-size`.

    ## What it does
    Reports, with `--enable-elastic-ep`, a maximum data-parallel size below
    the data-parallel size the launch starts with.

    ## Why
    The maximum bounds how far elastic EP may scale up from the initial
    size. `ParallelConfig.__post_init__` stops with "--elastic-ep-max-dp-size
    must be greater than or equal to the initial data_parallel_size (4)."
    Without `--enable-elastic-ep` the value is ignored.

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --enable-expert-parallel --enable-eplb --enable-elastic-ep \\
        --data-parallel-size 4 --elastic-ep-max-dp-size 2
    ```

    ## Fix
    Raise `--elastic-ep-max-dp-size` to at least `--data-parallel-size`.

    ## Evidence
    The flags as written. vLLM checks this after elastic EP's other
    requirements (`elastic-ep-requires-eplb`, ...) and, with async EPLB (the
    default), after checking that the NIXL package is installed, which the
    file does not show.

    ## vLLM source
    `ParallelConfig.__post_init__`.
    """

    code = "SL517"
    name = "elastic-ep-max-dp-size-below-dp"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--elastic-ep-max-dp-size"
    partners = ("--data-parallel-size",)
    requires = ("--data-parallel-size", "--elastic-ep-max-dp-size")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        cap = known_flag(inv, "elastic_ep_max_dp_size")
        if cap is None or not switch(inv, "enable_elastic_ep"):
            return
        top = int_of(inv, "elastic_ep_max_dp_size")
        dp = data_parallel_launch(ctx)
        if not top.known or dp is None or dp.size <= 1 or top.value >= dp.size:
            return
        yield finding(ctx, cap, vllm_message(ctx, _CHECK.key, dp.size), _CHECK.key,
                      related_to=related(ctx, value_of(inv, "data_parallel_size").flags,
                                         "initial data-parallel size set by {flag}"))
