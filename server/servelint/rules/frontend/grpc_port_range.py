"""SL704: `--grpc-port` outside 0-65535."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import grpc_findings

_CHECK = VllmCheck("grpc.range", "--grpc-port must be between 0 and 65535")


class GrpcPortRange(Rule):
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
    `validate_grpc_port_arg`, the first check of `validate_parsed_serve_args`
    after the chat template (vllm/entrypoints/launchers/cli_args.py in
    0.32.0, vllm/entrypoints/common/cli_args.py from 0.33.0).
    """

    code = "SL704"
    name = "grpc-port-range"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.32.0", "0.33.0")
    anchor = "--grpc-port"
    requires = ("--grpc-port",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        return grpc_findings(ctx, _CHECK.key, "")
