"""SL701: `--grpc-port` without `VLLM_USE_RUST_FRONTEND=1`."""

from __future__ import annotations

from ...diagnostics import Category
from ...knowledge.validators import VllmCheck
from ._shared import GrpcPortRule

_CHECK = VllmCheck("grpc.rust_frontend", "--grpc-port requires VLLM_USE_RUST_FRONTEND=1 vllm serve")


class GrpcPortRequiresRustFrontend(GrpcPortRule):
    """`--grpc-port` without `VLLM_USE_RUST_FRONTEND=1`.

    ## What it does
    Reports `--grpc-port` on a `vllm serve` launch whose environment does not set `VLLM_USE_RUST_FRONTEND` to a non-zero integer.

    ## Why
    The gRPC services of `--grpc-port` are part of the Rust frontend, which only `VLLM_USE_RUST_FRONTEND=1` starts. vLLM stops with "--grpc-port requires VLLM_USE_RUST_FRONTEND=1 vllm serve".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --grpc-port 50051
    ```

    ## Fix
    Export `VLLM_USE_RUST_FRONTEND=1` for the launch, or drop `--grpc-port` (`--grpc` is the Python gRPC server).

    ## Evidence
    The flags as written, the release's defaults and the launch's environment for `VLLM_USE_RUST_FRONTEND` (unset counts as 0, as in vLLM); a value servelint cannot read keeps the rule silent, and so does an earlier check of the same function that fails first. An environment the file does not show (a variable exported by whoever runs the script, a Kubernetes `envFrom`) cannot be seen: set the variable where the launch is written.

    ## vLLM source
    `validate_grpc_port_arg`, after the `--grpc` conflict: it reads
    `envs.VLLM_USE_RUST_FRONTEND` and the sub-command.
    """

    code = "SL701"
    name = "grpc-port-requires-rust-frontend"
    category = Category.INCOMPATIBLE
    vllm_checks = (_CHECK,)
