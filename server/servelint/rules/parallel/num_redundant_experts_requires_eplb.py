"""SL509: redundant experts without EPLB."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import json_of, switch, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("parallel.num_redundant_experts_requires_eplb", "but EPLB is not enabled. Either enable EPLB",
                   "vllm/config/parallel.py")


class NumRedundantExpertsRequiresEplb(Rule):
    """`--eplb-config` `num_redundant_experts` without `--enable-eplb`.

    ## What it does
    Reports a non-zero `num_redundant_experts` in `--eplb-config` (JSON or
    `--eplb-config.num_redundant_experts N`) when EPLB is off.

    ## Why
    Redundant experts are extra copies that EPLB places on the busiest
    ranks; without EPLB nothing uses them. `ParallelConfig` stops with
    "num_redundant_experts is set to 2 but EPLB is not enabled. Either
    enable EPLB or unset num_redundant_experts."

    ## Example
    ```sh
    vllm serve mistralai/Mixtral-8x7B-Instruct-v0.1 -tp 2 --eplb-config '{"num_redundant_experts": 2}'
    ```

    ## Fix
    Add `--enable-expert-parallel --enable-eplb`, or drop
    `num_redundant_experts`.

    ## Evidence
    The JSON as written (dotted keys merged); a value servelint cannot
    read keeps the rule silent. A negative count is refused by the field's
    range first (invalid-value).

    ## vLLM source
    `ParallelConfig._validate_parallel_config`, the `else` branch of its
    EPLB checks.
    """

    code = "SL509"
    name = "num-redundant-experts-requires-eplb"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--eplb-config"
    partners = ("--enable-eplb",)
    requires = ("--enable-eplb", "--eplb-config")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if not inv.flags_for("eplb_config"):
            return
        cfg = json_of(inv, "eplb_config")
        if not cfg.known:
            return
        count = cfg.value.get("num_redundant_experts")
        if not is_int(count) or count <= 0:
            return
        if switch(inv, "enable_eplb") is not False:
            return
        yield finding(ctx, cfg.flags[-1], vllm_message(ctx, _CHECK.key, count), _CHECK.key,
                      related_to=related(ctx, value_of(inv, "enable_eplb").flags, "EPLB turned off by {flag}"))
