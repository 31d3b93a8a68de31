"""SL719: `--api-server-count` above 1 with Elastic EP, which vLLM caps to one."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import switch, value_of
from ...derive.serve import rust_frontend_on
from ...diagnostics import Applicability, Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related
from ._shared import capped_api_server_count

_CHECK = VllmCheck("serve.elastic_ep_api_servers", "Elastic EP only supports running with with at most one API server. ")


class ElasticEpCapsApiServers(Rule):
    """`--api-server-count` above 1 with Elastic EP, which vLLM caps to one.

    ## What it does
    Reports an `--api-server-count` above 1 on a `vllm serve` launch with
    `--enable-elastic-ep`.

    ## Why
    Elastic EP runs with at most one API server. vLLM does not stop: it logs
    "Elastic EP only supports running with with at most one API server.
    Capping api_server_count from 4 to 1." and starts one, so the written
    count is not what runs.

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 -dp 4 --enable-expert-parallel --enable-eplb --enable-elastic-ep --api-server-count 4
    ```

    ## Fix
    Remove `--api-server-count` (offered).

    ## Fix safety
    Safe: vLLM starts one API server either way.

    ## Evidence
    The flags as written, for the `vllm serve` entry point. The count vLLM
    picks by default (the data-parallel size) is capped as well, and is not
    reported: nothing in the file asks for it. Silent with `--headless`
    (SL715) and with `VLLM_USE_RUST_FRONTEND` set (SL720).

    ## vLLM source
    The Elastic EP cap at the end of `ServeSubcommand.cmd`'s API server
    count (a golden case: the oracle does not run `cmd`).
    """

    code = "SL719"
    name = "elastic-ep-caps-api-servers"
    category = Category.INCOMPATIBLE
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--api-server-count"
    partners = ("--enable-elastic-ep",)
    fixes = frozenset({Applicability.SAFE})
    requires = ("--api-server-count",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if switch(inv, "enable_elastic_ep") is not True or rust_frontend_on(ctx) is not False:
            return
        capped = capped_api_server_count(ctx)
        if capped is None:
            return
        count, flags, fixes = capped
        message = f"Elastic EP runs at most one API server: vLLM caps --api-server-count from {count} to 1"
        yield finding(ctx, flags[-1], None, _CHECK.key, message=message, fixes=fixes,
                      related_to=related(ctx, value_of(inv, "enable_elastic_ep").flags, "Elastic EP turned on by {flag}"))
