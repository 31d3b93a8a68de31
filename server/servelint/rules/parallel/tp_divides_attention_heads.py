"""SL301: `--tensor-parallel-size` that does not divide the attention heads."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import last_flag, value_of
from ...derive.model import num_attention_heads
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note

_MODEL_READS = frozenset({"model", "hf_overrides"})


class TensorParallelHeads(Rule):
    """`--tensor-parallel-size` that does not divide the attention heads.

    ## What it does
    Reports `-tp N` when the model's config.json gives a
    `num_attention_heads` (of its `text_config` for multimodal models) that
    N does not divide.

    ## Why
    Each tensor-parallel rank holds the same number of attention heads.
    vLLM checks this while building its config and stops with "Total number
    of attention heads (32) must be divisible by tensor parallel size (3)."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 3    # 32 heads
    ```

    ## Fix
    Use a tensor-parallel size that divides the head count (1, 2, 4, 8...),
    and spread the rest over pipeline parallelism (`-pp`) if needed.

    ## Evidence
    A written `-tp` and the model's `config.json` (a local directory or the
    Hugging Face cache). Silent when no config.json is at hand, when
    `--hf-overrides` is written, and for the two model types whose head
    count vLLM reads elsewhere (`cohere_asr`, `moss_audio`).

    ## vLLM source
    `ModelConfig.verify_with_parallel_config`; the head count is
    `ModelArchConfigConvertorBase.get_total_num_attention_heads`
    (vllm/transformers_utils/model_arch_config_convertor.py).
    """

    code = "SL301"
    vllm_checks = (VllmCheck("heads", "must be divisible by tensor parallel size", "vllm/config/model.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "tp-divides-attention-heads"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--tensor-parallel-size"
    requires = ("--hf-overrides", "--tensor-parallel-size")
    reads = _MODEL_READS | {"tensor_parallel_size"}

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        flag = last_flag(inv, "tensor_parallel_size")
        tp = value_of(inv, "tensor_parallel_size")
        if flag is None or tp.how != "flag" or not is_int(tp.value) or tp.value < 1:
            return
        heads = num_attention_heads(ctx)
        if heads is None or heads % tp.value == 0:
            return
        message = (
            f"Total number of attention heads ({heads}) must be divisible by tensor parallel size ({tp.value})."
        )
        divisors = [d for d in range(1, min(heads, 64) + 1) if heads % d == 0]
        note = f"sizes that divide {heads}: {', '.join(map(str, divisors[:8]))}"
        rel = [r for r in [model_note(ctx)] if r is not None]
        yield finding(ctx, flag, message, "heads", note=note, related_to=rel)
