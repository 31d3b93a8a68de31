"""SL700: `--grpc` together with `--grpc-port`."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import grpc_findings

_CHECK = VllmCheck("grpc.exclusive", "--grpc and --grpc-port are mutually exclusive. Use --grpc ")


class GrpcAndGrpcPort(Rule):
    """`--grpc` together with `--grpc-port`.

    ## What it does
    Reports `--grpc-port` on a launch that also turns on `--grpc`.

    ## Why
    `--grpc` starts the Python gRPC server in place of the HTTP server (on `--port`); `--grpc-port` adds the Rust frontend's gRPC services next to HTTP. vLLM refuses the pair before loading anything: "--grpc and --grpc-port are mutually exclusive. Use --grpc --port for the Python gRPC server, or VLLM_USE_RUST_FRONTEND=1 with --grpc-port for the Rust frontend."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --grpc --grpc-port 50051
    ```

    ## Fix
    Keep one: `--grpc --port N` for the Python gRPC server, or `VLLM_USE_RUST_FRONTEND=1 vllm serve ... --grpc-port N` for the Rust frontend.

    ## Evidence
    The flags as written, the release's defaults and the launch's environment for `VLLM_USE_RUST_FRONTEND` (unset counts as 0, as in vLLM); a value servelint cannot read keeps the rule silent, and so does an earlier check of the same function that fails first.

    ## vLLM source
    `validate_grpc_port_arg`, the first check of `validate_parsed_serve_args`
    after the chat template (vllm/entrypoints/launchers/cli_args.py in
    0.32.0, vllm/entrypoints/common/cli_args.py from 0.33.0).
    """

    code = "SL700"
    name = "grpc-and-grpc-port"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.32.0", "0.33.0")
    anchor = "--grpc-port"
    requires = ("--grpc-port",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        return grpc_findings(ctx, _CHECK.key, "the Python gRPC server turned on by {flag}")
