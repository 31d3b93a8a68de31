"""SL702: `--grpc-port` on a launch that starts no API server."""

from __future__ import annotations

from ...diagnostics import Category
from ...knowledge.validators import VllmCheck
from ._shared import GrpcPortRule

_CHECK = VllmCheck("grpc.frontend", "--grpc-port requires a Rust frontend; remove --headless ")


class GrpcPortNeedsFrontend(GrpcPortRule):
    """`--grpc-port` on a launch that starts no API server.

    ## What it does
    Reports `--grpc-port` (with `VLLM_USE_RUST_FRONTEND=1`) on a launch with `--headless` or an `--api-server-count` of 0 or less.

    ## Why
    The gRPC listener lives in the Rust frontend process, which a headless launch (or one with no API server) never starts. vLLM stops with "--grpc-port requires a Rust frontend; remove --headless and non-positive --api-server-count".

    ## Example
    ```sh
    VLLM_USE_RUST_FRONTEND=1 vllm serve Qwen/Qwen3-8B --headless --grpc-port 50051
    ```

    ## Fix
    Put `--grpc-port` on the launch that runs the API server, not on the headless engine nodes.

    ## Evidence
    The flags as written, the release's defaults and the launch's environment for `VLLM_USE_RUST_FRONTEND` (unset counts as 0, as in vLLM); a value servelint cannot read keeps the rule silent, and so does an earlier check of the same function that fails first.

    ## vLLM source
    `validate_grpc_port_arg`, third: once the Rust frontend is on, the
    launch must start an API server.
    """

    code = "SL702"
    name = "grpc-port-needs-frontend"
    category = Category.INCOMPATIBLE
    vllm_checks = (_CHECK,)
    partner_note = "no API server because of {flag}"
