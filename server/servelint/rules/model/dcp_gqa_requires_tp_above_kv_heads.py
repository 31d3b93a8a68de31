"""SL330: decode-context parallelism on a GQA/MQA model with too few TP ranks."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import dcp_gqa

_CHECK = VllmCheck("model.dcp_gqa_tp_gt_kv_heads", ("Decode context parallelism for GQA/MQA requires",
                                                          "must be greater than total num kv heads"), "vllm/config/model.py")


class DcpGqaRequiresTpAboveKvHeads(Rule):
    """`--decode-context-parallel-size` above 1 with no more TP ranks than KV heads.

    ## What it does
    Reports a decode-context-parallel size above 1 when the model does not
    use MLA and `--tensor-parallel-size` is not greater than the model's
    number of KV heads (`num_key_value_heads` of its config.json).

    ## Why
    For GQA/MQA models, decode-context parallelism splits the KV cache of
    each KV head across the ranks that hold a copy of it; with no more ranks
    than KV heads no head is replicated, so there is nothing to split.
    vLLM stops with "Decode context parallelism for GQA/MQA requires
    `--tensor-parallel-size` (8) to be greater than the model's total number
    of KV heads (8). ..." (up to 0.26.0 an assertion: "tensor parallel size 8
    must be greater than total num kv heads 8 when enable decode context
    parallel for GQA/MQA").

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 8 --decode-context-parallel-size 2
    ```

    ## Fix
    Raise `--tensor-parallel-size` above the KV-head count (here `-tp 16`),
    or set `--decode-context-parallel-size 1`.

    ## Evidence
    The sizes as written (or the release's default TP size of 1) and the
    model's config.json: `num_key_value_heads` (or `num_kv_heads`) written
    as the only KV-head key, a model type without a head-count convertor of
    its own, and no MLA (`kv_lora_rank` on a DeepSeek-style model). Silent
    with `--hf-overrides`, a value only known at run time, or a model
    servelint has no config.json for.

    ## vLLM source
    `ModelConfig.verify_with_parallel_config`, the decode-context-parallel
    block (`decode_context_parallel_size > 1 and not self.use_mla`).
    """

    code = "SL330"
    name = "dcp-gqa-requires-tp-above-kv-heads"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--decode-context-parallel-size"
    partners = ("--tensor-parallel-size",)
    requires = ("--decode-context-parallel-size",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        d = dcp_gqa(ctx)
        if d is None or d.tp > d.kv_heads:
            return
        yield finding(ctx, d.anchor, vllm_message(ctx, _CHECK.key, d.tp, d.kv_heads), _CHECK.key, related_to=d.related)
