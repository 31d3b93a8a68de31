"""SL903: `--offload-num-in-group` larger than `--offload-group-size`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import int_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import prefetch_group

_CHECK = VllmCheck("offload.num_in_group", "must be <= offload_group_size ({})", "vllm/config/offload.py")


class OffloadNumInGroupAboveGroupSize(Rule):
    """Prefetch offloading with more offloaded layers per group than the group has.

    ## What it does
    Reports `--offload-num-in-group` (default 1) above `--offload-group-size`
    (default 0) when prefetch offloading is on: `--offload-group-size` above
    0, or `--offload-backend prefetch`.

    ## Why
    Prefetch offloading offloads the last `num_in_group` layers of every
    group of `group_size` layers; a group cannot give more layers than it
    has. `OffloadConfig` stops the launch: "offload_num_in_group (3) must be
    <= offload_group_size (2)". `--offload-backend prefetch` alone fails
    too: "offload_num_in_group (1) must be <= offload_group_size (0)".

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --offload-group-size 2 --offload-num-in-group 3
    ```

    ## Fix
    Lower `--offload-num-in-group` or raise `--offload-group-size` (set it
    when `--offload-backend prefetch` is given).

    ## Evidence
    The three options as written or defaulted; a value the file does not
    show keeps the rule silent.

    ## vLLM source
    `OffloadConfig.validate_offload_config`, its first check.
    """

    code = "SL903"
    name = "offload-num-in-group-above-group-size"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--offload-num-in-group"
    partners = ("--offload-group-size", "--offload-backend")
    requires = ("--offload-group-size", "--offload-backend")

    def check(self, ctx: Context) -> Iterable[Finding]:
        on = prefetch_group(ctx)
        if on is None:
            return
        size, backend = on
        num = int_of(ctx.invocation, "offload_num_in_group")
        if num.how == "unknown" or num.value <= size.value:
            return
        anchor = (num.flags or size.flags or backend.flags)[-1]
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key, num.value, size.value), _CHECK.key,
                      related_to=related(ctx, [f for f in (*size.flags, *backend.flags) if f is not anchor],
                                         "prefetch offloading turned on by {flag}"))
