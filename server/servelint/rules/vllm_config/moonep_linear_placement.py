"""SL641: the moonep all2all backend with a non-linear expert placement."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._late import moonep

_CHECK = VllmCheck("vllm.moonep_linear_placement", "The moonep all2all backend requires linear expert",
                   "vllm/config/vllm.py")


class MoonepLinearPlacement(Rule):
    """`--all2all-backend moonep` with `--expert-placement-strategy` other than `linear`.

    ## What it does
    Reports `--expert-placement-strategy round_robin` (any value but
    `linear`) written together with `--all2all-backend moonep`.

    ## Why
    MoonEP's load-time all-gather assumes each rank holds a contiguous
    chunk of the global expert range. vLLM stops while building its
    config: "The moonep all2all backend requires linear expert placement:
    ... Got --expert-placement-strategy 'round_robin'."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-30B-A3B -tp 2 --enable-expert-parallel --all2all-backend moonep \\
        --expert-placement-strategy round_robin
    ```

    ## Fix
    Remove `--expert-placement-strategy` (the default is `linear`), or pick
    another `--all2all-backend`.

    ## Evidence
    Both flags as written (silent when either is only known at run time).

    ## vLLM source
    `VllmConfig.__post_init__`, the moonep block (after the quantization,
    dtype and EPLB checks of the same backend).
    """

    code = "SL641"
    name = "moonep-linear-placement"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.31.0", "0.33.0")
    anchor = "--expert-placement-strategy"
    partners = ("--all2all-backend",)
    requires = ("--all2all-backend",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        backend = moonep(ctx)
        if backend is None:
            return
        strategy = value_of(ctx.invocation, "expert_placement_strategy")
        if strategy.how != "flag" or not isinstance(strategy.value, str) or strategy.value == "linear":
            return
        message = vllm_message(ctx, _CHECK.key, repr(strategy.value))
        if message is None:
            return
        rel = related(ctx, [backend], "MoonEP selected by {flag}")
        yield finding(ctx, strategy.flags[-1], message, _CHECK.key, related_to=rel)
