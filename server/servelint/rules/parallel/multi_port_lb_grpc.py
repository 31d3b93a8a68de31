"""SL550: `--data-parallel-multi-port-external-lb` with `--grpc`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import multi_port_args

_CHECK = VllmCheck("parallel.multi_port_grpc", 'does not support --grpc')


class MultiPortLbGrpc(Rule):
    """`--data-parallel-multi-port-external-lb` with `--grpc`.

    ## What it does
    Reports a `vllm serve --data-parallel-multi-port-external-lb` launch that the multi-port
    supervisor refuses: `--data-parallel-multi-port-external-lb` with `--grpc`.

    ## Why
    The multi-port supervisor starts one HTTP server per local rank; the gRPC server is another
    front end it does not supervise. vLLM checks the arguments of the supervisor before anything
    else starts and stops with "Error: --data-parallel-multi-port-external-lb does not support
    --grpc".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 4 --data-parallel-size-local 2 \\
        --data-parallel-multi-port-external-lb --grpc
    ```

    ## Fix
    Drop `--grpc`, or run one gRPC server per rank without the supervisor.

    ## Evidence
    The flags as written and the release's defaults; a value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `validate_multi_port_external_lb_args`, called by `validate_parsed_serve_args`, the first of its
    checks.
    """

    code = "SL550"
    name = "multi-port-lb-grpc"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-multi-port-external-lb"
    requires = ("--data-parallel-multi-port-external-lb",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.invocation.last("data_parallel_multi_port_external_lb") is None:
            return
        a = multi_port_args(ctx, ('grpc',))
        if a is None or not a.grpc:
            return
        anchor = known_flag(ctx.invocation, "grpc", "data_parallel_multi_port_external_lb")
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key), _CHECK.key)
