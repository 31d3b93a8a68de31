"""SL553: `--api-server-count` other than 1 under the multi-port supervisor."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import multi_port_args

_CHECK = VllmCheck("parallel.multi_port_api", 'external-lb currently requires ')


class MultiPortLbApiServerCount(Rule):
    """`--api-server-count` other than 1 under the multi-port supervisor.

    ## What it does
    Reports a `vllm serve --data-parallel-multi-port-external-lb` launch that the multi-port
    supervisor refuses: `--api-server-count` other than 1 under the multi-port supervisor.

    ## Why
    The supervisor already starts one API server per local rank. vLLM checks the arguments of the
    supervisor before anything else starts and stops with "Error:
    --data-parallel-multi-port-external-lb currently requires --api-server-count=1".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 4 --data-parallel-size-local 2 \\
        --data-parallel-multi-port-external-lb --api-server-count 2
    ```

    ## Fix
    Remove `--api-server-count`.

    ## Evidence
    The flags as written and the release's defaults; a value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `validate_multi_port_external_lb_args`, called by `validate_parsed_serve_args`, after
    `multi-port-lb-ssl-pair` (SL552).
    """

    code = "SL553"
    name = "multi-port-lb-api-server-count"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-multi-port-external-lb"
    requires = ("--data-parallel-multi-port-external-lb",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.invocation.last("data_parallel_multi_port_external_lb") is None:
            return
        a = multi_port_args(ctx, ('api_server_count',))
        if a is None or not (a.api_server_count not in (None, 1)):
            return
        anchor = known_flag(ctx.invocation, "api_server_count", "data_parallel_multi_port_external_lb")
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key), _CHECK.key)
