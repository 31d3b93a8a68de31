"""SL703: `--grpc-port` with `--data-parallel-multi-port-external-lb`."""

from __future__ import annotations

from ...diagnostics import Category
from ...knowledge.validators import VllmCheck
from ._shared import GrpcPortRule

_CHECK = VllmCheck("grpc.multi_port", "its frontends would share the same gRPC port")


class GrpcPortMultiPortLb(GrpcPortRule):
    """`--grpc-port` with `--data-parallel-multi-port-external-lb`.

    ## What it does
    Reports `--grpc-port` (with `VLLM_USE_RUST_FRONTEND=1`) on a launch with `--data-parallel-multi-port-external-lb`.

    ## Why
    The multi-port supervisor starts one frontend per local rank; they would all bind the one gRPC port. vLLM stops with "--grpc-port is incompatible with --data-parallel-multi-port-external-lb: its frontends would share the same gRPC port".

    ## Example
    ```sh
    VLLM_USE_RUST_FRONTEND=1 vllm serve deepseek-ai/DeepSeek-V3 -dp 4 -dpl 2 --data-parallel-multi-port-external-lb --grpc-port 50051
    ```

    ## Fix
    Drop `--grpc-port`, or run one launch per rank (external load balancing) each with its own gRPC port.

    ## Evidence
    The flags as written, the release's defaults and the launch's environment for `VLLM_USE_RUST_FRONTEND` (unset counts as 0, as in vLLM); a value servelint cannot read keeps the rule silent, and so does an earlier check of the same function that fails first.

    ## vLLM source
    `validate_grpc_port_arg`, fourth; the multi-port supervisor's own
    checks come after it in `validate_parsed_serve_args`.
    """

    code = "SL703"
    name = "grpc-port-multi-port-lb"
    category = Category.INCOMPATIBLE
    vllm_checks = (_CHECK,)
    partner_note = "multi-port external load balancing turned on by {flag}"
