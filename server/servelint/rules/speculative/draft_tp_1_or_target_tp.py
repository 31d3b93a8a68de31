"""SL317: `draft_tensor_parallel_size` other than 1 or the target's tensor-parallel size."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import value_of
from ...derive.speculative import MODEL_FREE_METHODS, SPECULATIVE_DESTS, is_custom_proposer_path, speculative_args
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related
from ._shared import speculative_written


class DraftTensorParallelSize(Rule):
    """`draft_tensor_parallel_size` other than 1 or the target's tensor-parallel size.

    ## What it does
    Reports `draft_tensor_parallel_size` in the speculative config when it
    is neither 1 nor `--tensor-parallel-size`, for configs that load a
    draft model (a `model` with a model-based method, or `mtp`). `ngram`,
    `suffix` and other model-free methods never check it.

    ## Why
    The draft runs on a subset of the target's ranks. vLLM stops with
    "speculative_draft_tensor_parallel_size=4 cannot be other value than 1
    or target model tensor_parallel_size".

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4 \\
        --speculative-config '{"model": "meta-llama/Llama-3.2-1B-Instruct", "num_speculative_tokens": 4, "draft_tensor_parallel_size": 2}'
    ```

    ## Fix
    Use 1 or the target's tensor-parallel size (the default when unset).

    ## Evidence
    The speculative config as written and the launch's
    `--tensor-parallel-size` (its default when unwritten); silent when
    either is only known at run time.

    ## vLLM source
    `SpeculativeConfig._verify_and_get_draft_tp`.
    """

    code = "SL317"
    vllm_checks = (VllmCheck("draft_tp", "other value than 1 or target model tensor_parallel_size", "vllm/config/speculative.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "draft-tp-1-or-target-tp"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--speculative-config"
    partners = ("--tensor-parallel-size",)
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")
    reads = SPECULATIVE_DESTS | {"tensor_parallel_size"}

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        s = speculative_args(ctx)
        if s is None:
            return
        dtp = s.get("draft_tensor_parallel_size")
        if not is_int(dtp) or dtp < 1:
            return
        tp = value_of(ctx.invocation, "tensor_parallel_size")
        if not is_int(tp.value) or dtp in (1, tp.value):
            return
        method, model, tokens = s.method, s.model, s.tokens
        if method is False or model is False or tokens is False:
            return
        if model is None:
            if method != "mtp" or tokens is None:
                return  # no draft model is loaded (another rule may fire)
        else:
            if model in ("ngram", "[ngram]") or is_custom_proposer_path(model) or method in MODEL_FREE_METHODS:
                return
            if method not in (None, "draft_model", "eagle", "eagle3", "dflash", "mtp"):
                return
        message = (
            f"speculative_draft_tensor_parallel_size={dtp} cannot be other value than 1 or target model "
            "tensor_parallel_size"
        )
        rel = related(ctx, tp.flags, "target tensor-parallel size set by {flag}")
        yield finding(ctx, s.anchor, message, "draft_tp", note=f"target tensor_parallel_size is {tp.value}",
                      related_to=rel)
