"""SL531: `--nnodes` above 1 with `--data-parallel-backend ray`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag, value_of
from ...derive.parallel import data_parallel_args
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck(
    "parallel.nnodes_requires_mp_dp_backend",
    ("requires `--data-parallel-backend mp`; got", "nnodes > 1 is only supported with data_parallel_backend=mp"),
    "vllm/engine/arg_utils.py",
)


class NnodesRequiresMpDataParallelBackend(Rule):
    """`--nnodes` above 1 with a data-parallel backend other than `mp`.

    ## What it does
    Reports `--nnodes` above 1 when `--data-parallel-backend` is `ray`.

    ## Why
    `--nnodes`/`--node-rank` describe vLLM's own multiprocessing launch over
    nodes; the Ray backend places data-parallel ranks itself.
    `EngineArgs.create_engine_config` stops with "Invalid data-parallel
    launch options: `--nnodes 2` requires `--data-parallel-backend mp`; got
    `--data-parallel-backend ray`. ..." (0.25.0-0.26.0: "nnodes > 1 is only
    supported with data_parallel_backend=mp").

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 16 --nnodes 2 --data-parallel-backend ray
    ```

    ## Fix
    Use `--data-parallel-backend mp` with `--nnodes`, or leave `--nnodes`
    out with Ray.

    ## Evidence
    The flags as written.

    ## vLLM source
    `EngineArgs.create_engine_config`, after `dp-hybrid-and-external-lb`.
    """

    code = "SL531"
    name = "nnodes-requires-mp-dp-backend"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--nnodes"
    partners = ("--data-parallel-backend",)
    requires = ("--data-parallel-backend", "--nnodes")

    def check(self, ctx: Context) -> Iterable[Finding]:
        nnodes = known_flag(ctx.invocation, "nnodes")
        if nnodes is None:
            return
        args = data_parallel_args(ctx)
        if args is None or args.nnodes <= 1 or args.backend in ("mp", None):
            return
        site = validators.site(_CHECK.key, ctx.version)
        values = (args.nnodes, args.backend) if site is not None and "{}" in site.template else ()  # not in 0.25-0.26
        yield finding(ctx, nnodes, vllm_message(ctx, _CHECK.key, *values), _CHECK.key,
                      related_to=related(ctx, value_of(ctx.invocation, "data_parallel_backend").flags,
                                         "data-parallel backend set by {flag}"))
