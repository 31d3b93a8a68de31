"""SL537: an external data-parallel rank with a local size other than 1."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...derive.parallel import data_parallel_args
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck(
    "parallel.external_lb_dp_size_local_1",
    ("an external data-parallel rank requires", "data_parallel_size_local must be 1 or None when"),
    "vllm/engine/arg_utils.py",
)


class ExternalLbDpSizeLocalNot1(Rule):
    """`--data-parallel-size-local` other than 1 under external load balancing.

    ## What it does
    Reports `--data-parallel-size-local` written as anything but 1 in a
    launch that uses external data-parallel load balancing
    (`--data-parallel-rank` or `--data-parallel-external-lb`).

    ## Why
    An externally balanced process is exactly one data-parallel rank.
    `EngineArgs.create_engine_config` stops with "Invalid data-parallel
    launch options: an external data-parallel rank requires
    `--data-parallel-size-local 1`; got 2. Set it to 1 or omit it."
    (0.25.0-0.26.0: "data_parallel_size_local must be 1 or None when
    data_parallel_rank is set").

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 4 --data-parallel-rank 0 --data-parallel-size-local 2
    ```

    ## Fix
    Omit `--data-parallel-size-local`, or use hybrid load balancing
    (`--data-parallel-start-rank` instead of `--data-parallel-rank`) for
    several ranks per node.

    ## Evidence
    The flags as written.

    ## vLLM source
    `EngineArgs.create_engine_config`, after `external-lb-requires-dp-rank`.
    """

    code = "SL537"
    name = "external-lb-dp-size-local-not-1"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-size-local"
    partners = ("--data-parallel-rank", "--data-parallel-external-lb")
    requires = ("--data-parallel-external-lb", "--data-parallel-rank", "--data-parallel-size-local")

    def check(self, ctx: Context) -> Iterable[Finding]:
        local = known_flag(ctx.invocation, "data_parallel_size_local")
        if local is None:
            return
        args = data_parallel_args(ctx)
        if args is None or not (args.external_lb or args.rank is not None) or args.size_local in (1, None):
            return
        site = validators.site(_CHECK.key, ctx.version)
        values = (args.size_local,) if site is not None and "{}" in site.template else ()  # not in 0.25-0.26
        yield finding(ctx, local, vllm_message(ctx, _CHECK.key, *values), _CHECK.key)
