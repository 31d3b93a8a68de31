"""SL552: `--ssl-keyfile` without `--ssl-certfile` (or the reverse) under the multi-port supervisor."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import multi_port_args

_CHECK = VllmCheck("parallel.multi_port_ssl", 'Error: --ssl-keyfile and --ssl-certfile must be provided together')


class MultiPortLbSslPair(Rule):
    """`--ssl-keyfile` without `--ssl-certfile` (or the reverse) under the multi-port supervisor.

    ## What it does
    Reports a `vllm serve --data-parallel-multi-port-external-lb` launch that the multi-port
    supervisor refuses: `--ssl-keyfile` without `--ssl-certfile` (or the reverse) under the
    multi-port supervisor.

    ## Why
    The supervisor hands TLS to every rank's server, which needs the key and the certificate
    together. vLLM checks the arguments of the supervisor before anything else starts and stops with
    "Error: --ssl-keyfile and --ssl-certfile must be provided together".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 4 --data-parallel-size-local 2 \\
        --data-parallel-multi-port-external-lb --ssl-keyfile key.pem
    ```

    ## Fix
    Give both `--ssl-keyfile` and `--ssl-certfile`, or neither.

    ## Evidence
    The flags as written and the release's defaults; a value servelint cannot read keeps the rule
    silent.

    ## vLLM source
    `validate_multi_port_external_lb_args`, called by `validate_parsed_serve_args`, after
    `multi-port-lb-uds` (SL551).
    """

    code = "SL552"
    name = "multi-port-lb-ssl-pair"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--data-parallel-multi-port-external-lb"
    requires = ("--data-parallel-multi-port-external-lb",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.invocation.last("data_parallel_multi_port_external_lb") is None:
            return
        a = multi_port_args(ctx, ('ssl_keyfile', 'ssl_certfile'))
        if a is None or not (bool(a.ssl_keyfile) != bool(a.ssl_certfile)):
            return
        anchor = known_flag(ctx.invocation, "ssl_keyfile", "ssl_certfile", "data_parallel_multi_port_external_lb")
        yield finding(ctx, anchor, vllm_message(ctx, _CHECK.key), _CHECK.key)
