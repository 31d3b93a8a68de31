"""SL331: a decode-context-parallel size above TP size / KV heads."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import dcp_gqa

_CHECK = VllmCheck("model.dcp_exceeds_max_gqa", ("exceeds the maximum supported value",
                                                     "decode context parallel size must less than or equal to"),
                   "vllm/config/model.py")


class DcpAboveMaxForGqa(Rule):
    """`--decode-context-parallel-size` above `--tensor-parallel-size` divided by the KV heads.

    ## What it does
    Reports a decode-context-parallel size greater than the tensor-parallel
    size divided by the model's number of KV heads (rounded down), when the
    model does not use MLA and the tensor-parallel size is greater than the
    KV-head count (otherwise `dcp-gqa-requires-tp-above-kv-heads` applies).

    ## Why
    Each KV head is replicated on TP / KV-heads ranks, and decode-context
    parallelism can only split the KV cache across those replicas. vLLM
    stops with "`--decode-context-parallel-size` (4) exceeds the maximum
    supported value (2) for `--tensor-parallel-size` (16) and 8 model KV
    heads." (up to 0.26.0 an assertion: "decode context parallel size must
    less than or equal to (tensor parallel size 16 // total num kv heads 8)
    = 2, but got 4").

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 16 --decode-context-parallel-size 4
    ```

    ## Fix
    Lower `--decode-context-parallel-size` to at most TP / KV heads (here
    2), or raise `--tensor-parallel-size`.

    ## Evidence
    As for `dcp-gqa-requires-tp-above-kv-heads`: the written sizes and the
    KV-head count written in the model's config.json.

    ## vLLM source
    `ModelConfig.verify_with_parallel_config`, the decode-context-parallel
    block (`max_dcp_size = tensor_parallel_size // total_num_kv_heads`).
    """

    code = "SL331"
    name = "dcp-above-max-for-gqa"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--decode-context-parallel-size"
    partners = ("--tensor-parallel-size",)
    requires = ("--decode-context-parallel-size",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        d = dcp_gqa(ctx)
        if d is None or d.tp <= d.kv_heads:
            return
        most = d.tp // d.kv_heads
        if d.dcp <= most:
            return
        site = validators.site(_CHECK.key, ctx.version)
        if site is None:
            return
        if site.template.startswith("decode context parallel size"):  # up to 0.26.0
            values = (d.tp, d.kv_heads, most, d.dcp)
        else:
            values = (d.dcp, most, d.tp, d.kv_heads)
        yield finding(ctx, d.anchor, vllm_message(ctx, _CHECK.key, *values), _CHECK.key, related_to=d.related)
