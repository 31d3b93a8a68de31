"""SL351: dual-batch overlap or microbatching for a Qwen4Exp model with PLE or QSA layers."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, vllm_message
from ._hooks import qwen4exp_text, uses_ple, uses_qsa

_CHECK = VllmCheck("model.qwen4exp_ple_no_dbo",
                   "Qwen4Exp PLE/QSA does not support dual-batch overlap or microbatching",
                   "vllm/model_executor/models/config.py", whole=True)


class Qwen4expPleNoDbo(Rule):
    """`--enable-dbo` or `--ubatch-size` above 1 for a Qwen4Exp model with PLE or QSA.

    ## What it does
    Reports `--enable-dbo`, or a `--ubatch-size` above 1, when the model is
    a Qwen4Exp model whose text config lists `ple_layer_ids` (N-gram PLE
    embeddings) or sets `indexer_n_heads` (QSA sparse attention).

    ## Why
    vLLM's config hook for Qwen4Exp stops with "Qwen4Exp PLE/QSA does not
    support dual-batch overlap or microbatching".

    ## Example
    ```sh
    vllm serve ./qwen4-exp-ple --enable-dbo
    ```

    ## Fix
    Drop `--enable-dbo` and `--ubatch-size`.

    ## Evidence
    The written flags and the model's config.json: one architecture the
    release's `MODELS_CONFIG_MAP` maps to a Qwen4Exp hook, with a non-empty
    `ple_layer_ids` or an `indexer_n_heads` in its text config. Silent with
    `--hf-overrides` or `--model-impl`. The oracle's environment cannot
    inspect the Qwen4Exp architectures, so this rule has a golden case
    only.

    ## vLLM source
    `Qwen4ExpForConditionalGenerationConfig.verify_and_update_config`.
    """

    code = "SL351"
    name = "qwen4exp-ple-no-dbo"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enable-dbo"
    partners = ("--ubatch-size",)
    requires = ("--enable-dbo", "--ubatch-size")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        flag = None
        if inv.knowledge.by_dest.get("ubatch_size") is not None:
            ub = value_of(inv, "ubatch_size")
            if ub.known and is_int(ub.value) and ub.value > 1 and ub.flags:
                flag = ub.flags[-1]
        if inv.knowledge.by_dest.get("enable_dbo") is not None:
            dbo = value_of(inv, "enable_dbo")
            if dbo.known and dbo.value is True and dbo.flags:
                flag = dbo.flags[-1]
        if flag is None:
            return
        text = qwen4exp_text(ctx)
        if text is None:
            return
        ple, qsa = uses_ple(text), uses_qsa(text)
        if not (ple is True or qsa is True):
            return
        rel = [r for r in [model_note(ctx)] if r is not None]
        yield finding(ctx, flag, vllm_message(ctx, _CHECK.key), _CHECK.key, related_to=rel)
