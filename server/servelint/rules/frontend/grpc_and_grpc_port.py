"""SL700: `--grpc` together with `--grpc-port`."""

from __future__ import annotations

from ...diagnostics import Category
from ...knowledge.validators import VllmCheck
from ._shared import GrpcPortRule

_CHECK = VllmCheck("grpc.exclusive", "--grpc and --grpc-port are mutually exclusive. Use --grpc ")


class GrpcAndGrpcPort(GrpcPortRule):
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
    The first check of `validate_grpc_port_arg`, which
    `validate_parsed_serve_args` runs after the chat template.
    """

    code = "SL700"
    name = "grpc-and-grpc-port"
    category = Category.INCOMPATIBLE
    vllm_checks = (_CHECK,)
    partner_note = "the Python gRPC server turned on by {flag}"
