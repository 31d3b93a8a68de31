"""SL704: `--grpc-port` outside 0-65535."""

from __future__ import annotations

from ...diagnostics import Category
from ...knowledge.validators import VllmCheck
from ._shared import GrpcPortRule

_CHECK = VllmCheck("grpc.range", "--grpc-port must be between 0 and 65535")


class GrpcPortRange(GrpcPortRule):
    """`--grpc-port` outside 0-65535.

    ## What it does
    Reports a `--grpc-port` (with `VLLM_USE_RUST_FRONTEND=1`) below 0 or above 65535.

    ## Why
    A TCP port is 16 bits. vLLM stops with "--grpc-port must be between 0 and 65535".

    ## Example
    ```sh
    VLLM_USE_RUST_FRONTEND=1 vllm serve Qwen/Qwen3-8B --grpc-port 80000
    ```

    ## Fix
    Choose a port in 1-65535 (0 lets the system pick one).

    ## Evidence
    The flags as written, the release's defaults and the launch's environment for `VLLM_USE_RUST_FRONTEND` (unset counts as 0, as in vLLM); a value servelint cannot read keeps the rule silent, and so does an earlier check of the same function that fails first.

    ## vLLM source
    `validate_grpc_port_arg`, the range test after the mode checks.
    """

    code = "SL704"
    name = "grpc-port-range"
    category = Category.INVALID_VALUE
    vllm_checks = (_CHECK,)
