"""SL650: NixlConnector with decode context parallelism on a model without MLA."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import written
from ...derive.model import text_config, uses_mla
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, related, vllm_message
from ._late import NIXL_PCP_REFUSED, nixl_dcp

_CHECK = VllmCheck("vllm.nixl_dcp_mla", "PD with decode_context_parallel_size > 1 is only", "vllm/config/vllm.py")



class NixlDcpRequiresMla(Rule):
    """NixlConnector with `-dcp` above 1 on a model that does not use MLA.

    ## What it does
    Reports `--decode-context-parallel-size` above 1 on a launch whose
    `--kv-transfer-config` uses NixlConnector when the model does not run
    with Multi-head Latent Attention, once the earlier checks pass: `-dcp`
    equals the NIXL transfer size, the tensor-parallel size exceeds the
    model's KV heads and `-dcp` is at most their quotient (else
    `ModelConfig` refuses DCP for GQA first): in practice a multi-query
    model (one KV head).

    ## Why
    Disaggregated prefill/decode with a DCP-sharded KV cache is
    implemented for MLA's latent cache only. vLLM asserts while building
    its config: "PD with decode_context_parallel_size > 1 is only
    supported for MLA models."

    ## Example
    ```sh
    vllm serve /models/my-mqa-model -tp 2 -dcp 2 \\
        --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "kv_both"}'
    ```

    ## Fix
    Drop `-dcp` on the NIXL instances of this model, or serve an MLA
    model.

    ## Evidence
    The parallel sizes and the KV transfer config as written, and the
    model's config.json (MLA, `num_key_value_heads`); silent when
    `VLLM_MLA_DISABLE` is set or `--hf-overrides` is written.

    ## vLLM source
    `VllmConfig.__post_init__`, the NIXL block (an `assert`, after the
    transfer-size one).
    """

    code = "SL650"
    name = "nixl-dcp-requires-mla"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK, NIXL_PCP_REFUSED)
    reviewed = ("0.29.0", "0.33.0")
    anchor = "--decode-context-parallel-size"
    partners = ("--kv-transfer-config",)
    requires = ("--decode-context-parallel-size",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        got = nixl_dcp(ctx)
        # The transfer-size check comes first (nixl-dcp-size).
        if got is None or got.dcp.value != got.transfer:
            return
        inv, dcp, tp, nixl = ctx.invocation, got.dcp, got.tp, got.nixl
        if "VLLM_MLA_DISABLE" in inv.env or written(inv, "hf_overrides"):
            return
        if uses_mla(ctx) is not False:
            return
        text = text_config(ctx)
        if text is None:
            return
        kv_heads = text.get("num_key_value_heads", text.get("num_attention_heads"))
        if not is_int(kv_heads) or kv_heads < 1 or tp.value <= kv_heads or dcp.value > tp.value // kv_heads:
            return  # ModelConfig.verify_with_parallel_config refuses DCP for GQA first
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        rel = related(ctx, list(nixl.flags[-1:]), "NixlConnector configured by {flag}")
        note = model_note(ctx)
        if note:
            rel.append(note)
        yield finding(ctx, dcp.flags[-1], message, _CHECK.key, related_to=rel)
