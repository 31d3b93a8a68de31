"""SL332: a decode-context-parallel size that does not divide the query heads per KV head."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import dcp_gqa

_CHECK = VllmCheck("model.dcp_q_per_kv_divisible", ("number of query heads per KV head",
                                                           "Total number of q per kv attn heads"), "vllm/config/model.py")


class DcpNotDividingQueriesPerKvHead(Rule):
    """`--decode-context-parallel-size` that does not divide the model's query heads per KV head.

    ## What it does
    Reports a decode-context-parallel size that does not divide
    `num_attention_heads // num_key_value_heads` of the model's config.json,
    when the model does not use MLA and the size passes vLLM's two checks
    before this one (`dcp-gqa-requires-tp-above-kv-heads`,
    `dcp-above-max-for-gqa`).

    ## Why
    The query heads that share a KV head are spread over the
    decode-context-parallel ranks, so their number must be a multiple of
    the DCP size. vLLM stops with "The model's number of query heads per KV
    head (5) must be divisible by `--decode-context-parallel-size` (2) for
    GQA/MQA." (up to 0.26.0 an assertion: "Total number of q per kv attn heads
    (5) must be divisible by dcp world size when enable decode context
    parallel for GQA (2).").

    ## Example
    ```sh
    # a model with 20 attention heads and 4 KV heads
    vllm serve my-org/model -tp 20 --decode-context-parallel-size 2
    ```

    ## Fix
    Pick a decode-context-parallel size that divides the query heads per
    KV head (here 5), or `--decode-context-parallel-size 1`.

    ## Evidence
    As for `dcp-gqa-requires-tp-above-kv-heads`, plus `num_attention_heads`
    of the model's text config.

    ## vLLM source
    `ModelConfig.verify_with_parallel_config`, the last check of the
    decode-context-parallel block.
    """

    code = "SL332"
    name = "dcp-not-dividing-queries-per-kv-head"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--decode-context-parallel-size"
    partners = ("--tensor-parallel-size",)
    requires = ("--decode-context-parallel-size",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        d = dcp_gqa(ctx)
        if d is None or d.tp <= d.kv_heads or d.dcp > d.tp // d.kv_heads:
            return
        per_kv = d.heads // d.kv_heads
        if per_kv % d.dcp == 0:
            return
        yield finding(ctx, d.anchor, vllm_message(ctx, _CHECK.key, per_kv, d.dcp), _CHECK.key, related_to=d.related)
