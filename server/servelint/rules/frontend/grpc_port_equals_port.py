"""SL705: `--grpc-port` equal to the HTTP `--port`."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import grpc_findings

_CHECK = VllmCheck("grpc.equals_port", "--grpc-port must differ from --port when HTTP uses TCP")


class GrpcPortEqualsPort(Rule):
    """`--grpc-port` equal to the HTTP `--port`.

    ## What it does
    Reports a `--grpc-port` (with `VLLM_USE_RUST_FRONTEND=1`, not 0) equal to `--port` (8000 by default) when no `--uds` socket takes the HTTP server off TCP.

    ## Why
    The HTTP server and the gRPC listener would bind the same TCP port. vLLM stops with "--grpc-port must differ from --port when HTTP uses TCP".

    ## Example
    ```sh
    VLLM_USE_RUST_FRONTEND=1 vllm serve Qwen/Qwen3-8B --grpc-port 8000
    ```

    ## Fix
    Give the gRPC listener another port (`--grpc-port 50051`).

    ## Evidence
    The flags as written, the release's defaults and the launch's environment for `VLLM_USE_RUST_FRONTEND` (unset counts as 0, as in vLLM); a value servelint cannot read keeps the rule silent, and so does an earlier check of the same function that fails first.

    ## vLLM source
    `validate_grpc_port_arg`, the first check of `validate_parsed_serve_args`
    after the chat template (vllm/entrypoints/launchers/cli_args.py in
    0.32.0, vllm/entrypoints/common/cli_args.py from 0.33.0).
    """

    code = "SL705"
    name = "grpc-port-equals-port"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.32.0", "0.33.0")
    anchor = "--grpc-port"
    requires = ("--grpc-port",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        return grpc_findings(ctx, _CHECK.key, "HTTP port set by {flag}")
