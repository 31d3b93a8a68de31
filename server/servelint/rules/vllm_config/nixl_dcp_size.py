"""SL649: NixlConnector with a decode context parallel size that is neither 1 nor the transfer size."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._late import NIXL_PCP_REFUSED, nixl_dcp

_CHECK = VllmCheck("vllm.nixl_dcp_size", "decode_context_parallel_size={} must be 1 or equal", "vllm/config/vllm.py")



class NixlDcpSize(Rule):
    """NixlConnector with `-dcp` other than 1 or the tensor (or prefill context) parallel size.

    ## What it does
    Reports `--decode-context-parallel-size` (`-dcp`) above 1 on a launch
    whose `--kv-transfer-config` uses NixlConnector (directly or as a
    MultiConnector child) when it differs from the NIXL transfer size:
    `max(--tensor-parallel-size, --prefill-context-parallel-size)` from
    0.30.0, `--tensor-parallel-size` in 0.29.0.

    ## Why
    A NIXL side is either fully replicated or fully DCP-sharded. vLLM
    asserts while building its config: "decode_context_parallel_size=2
    must be 1 or equal to the NIXL transfer parallel size=4."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 -tp 4 -dcp 2 \\
        --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "kv_both"}'
    ```

    ## Fix
    Set `-dcp` to the tensor-parallel size, or drop it (1).

    ## Evidence
    The parallel sizes and the KV transfer config as written (silent when
    one is only known at run time; in 0.29.0 also with a prefill context
    parallel size above 1, which vLLM refuses first).

    ## vLLM source
    `VllmConfig.__post_init__`, the NIXL block (an `assert`).
    """

    code = "SL649"
    name = "nixl-dcp-size"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK, NIXL_PCP_REFUSED)
    reviewed = ("0.29.0", "0.33.0")
    anchor = "--decode-context-parallel-size"
    partners = ("--kv-transfer-config", "--tensor-parallel-size", "--prefill-context-parallel-size")
    requires = ("--decode-context-parallel-size",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        got = nixl_dcp(ctx)
        if got is None or got.dcp.value == got.transfer:
            return
        message = vllm_message(ctx, _CHECK.key, got.dcp.value, got.transfer)
        if message is None:
            return
        rel = related(ctx, list(got.nixl.flags[-1:]), "NixlConnector configured by {flag}")
        rel += related(ctx, list(got.tp.flags) + list(got.pcp.flags), "transfer size set by {flag}")
        yield finding(ctx, got.dcp.flags[-1], message, _CHECK.key, related_to=rel)
