"""SL705: `--grpc-port` equal to the HTTP `--port`."""

from __future__ import annotations

from ...diagnostics import Category
from ...knowledge.validators import VllmCheck
from ._shared import GrpcPortRule

_CHECK = VllmCheck("grpc.equals_port", "--grpc-port must differ from --port when HTTP uses TCP")


class GrpcPortEqualsPort(GrpcPortRule):
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
    `validate_grpc_port_arg`, its last check.
    """

    code = "SL705"
    name = "grpc-port-equals-port"
    category = Category.INCOMPATIBLE
    vllm_checks = (_CHECK,)
    partner_note = "HTTP port set by {flag}"
