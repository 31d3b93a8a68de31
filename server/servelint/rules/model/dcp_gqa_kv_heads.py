"""SL330: a decode-context-parallel size the model's KV heads do not allow (GQA/MQA)."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import dcp_gqa

# The three checks, in vLLM's order; up to 0.26.0 they are assertions with
# other texts.
_TP = VllmCheck("model.dcp_gqa_tp_gt_kv_heads", ("Decode context parallelism for GQA/MQA requires",
                                                 "must be greater than total num kv heads"), "vllm/config/model.py")
_MAX = VllmCheck("model.dcp_exceeds_max_gqa", ("exceeds the maximum supported value",
                                               "decode context parallel size must less than or equal to"),
                 "vllm/config/model.py")
_Q = VllmCheck("model.dcp_q_per_kv_divisible", ("number of query heads per KV head",
                                                "Total number of q per kv attn heads"), "vllm/config/model.py")


class DcpGqaKvHeads(Rule):
    """`--decode-context-parallel-size` that the model's KV heads do not allow.

    ## What it does
    For a decode-context-parallel size above 1 on a model that does not use
    MLA (GQA/MQA attention), reports, as vLLM checks them in turn:

    1. a `--tensor-parallel-size` not greater than the model's number of KV
       heads (`num_key_value_heads` of its config.json);
    2. a DCP size greater than TP size // KV heads (the replicas of each KV
       head);
    3. a DCP size that does not divide the query heads per KV head
       (`num_attention_heads // num_key_value_heads`).

    ## Why
    Decode-context parallelism splits the KV cache of each KV head across
    the TP ranks that hold a copy of it, and spreads the query heads that
    share it across those ranks. vLLM stops with "Decode context parallelism
    for GQA/MQA requires `--tensor-parallel-size` (8) to be greater than the
    model's total number of KV heads (8). ...", "`--decode-context-parallel-size`
    (4) exceeds the maximum supported value (2) for `--tensor-parallel-size`
    (16) and 8 model KV heads." or "The model's number of query heads per KV
    head (5) must be divisible by `--decode-context-parallel-size` (2) for
    GQA/MQA." (up to 0.26.0 these are assertions worded otherwise: "tensor
    parallel size 8 must be greater than total num kv heads 8 when enable
    decode context parallel for GQA/MQA", ...).

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 8 --decode-context-parallel-size 2
    ```

    ## Fix
    Raise `--tensor-parallel-size` above the KV-head count and pick a DCP
    size at most TP / KV heads that divides the query heads per KV head
    (Llama 3.1 8B, 8 KV heads: `-tp 16 -dcp 2`), or set
    `--decode-context-parallel-size 1`.

    ## Evidence
    The sizes as written (or the release's default TP size of 1) and the
    model's config.json: `num_key_value_heads` (or `num_kv_heads`) written
    as the only KV-head key, `num_attention_heads`, a model type without a
    head-count convertor of its own, and no MLA (`kv_lora_rank` on a
    DeepSeek-style model). Silent with `--hf-overrides`, a value only known
    at run time, or a model servelint has no config.json for.

    ## vLLM source
    `ModelConfig.verify_with_parallel_config`, the decode-context-parallel
    block (`decode_context_parallel_size > 1 and not self.use_mla`).
    """

    code = "SL330"
    name = "dcp-gqa-kv-heads"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_TP, _MAX, _Q)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--decode-context-parallel-size"
    partners = ("--tensor-parallel-size",)
    requires = ("--decode-context-parallel-size",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        d = dcp_gqa(ctx)
        if d is None:
            return
        most = d.tp // d.kv_heads
        per_kv = d.heads // d.kv_heads
        if d.tp <= d.kv_heads:
            key, values = _TP.key, (d.tp, d.kv_heads)
        elif d.dcp > most:
            site = validators.site(_MAX.key, ctx.version)
            if site is None:
                return
            old = site.template.startswith("decode context parallel size")  # up to 0.26.0
            key, values = _MAX.key, ((d.tp, d.kv_heads, most, d.dcp) if old else (d.dcp, most, d.tp, d.kv_heads))
        elif per_kv % d.dcp:
            key, values = _Q.key, (per_kv, d.dcp)
        else:
            return
        yield finding(ctx, d.anchor, vllm_message(ctx, key, *values), key, related_to=d.related)
