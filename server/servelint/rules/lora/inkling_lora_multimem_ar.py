"""SL902: LoRA on an Inkling model without `INKLING_MULTIMEM_AR=0`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import defaults_unknown, switch, value_of
from ...derive.model import model_config
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, vllm_message

_CHECK = VllmCheck("lora.inkling_multimem_ar", "Inkling LoRA requires INKLING_MULTIMEM_AR=0: the Lamport",
                   "vllm/config/lora.py")
_ENV = "INKLING_MULTIMEM_AR"


class InklingLoraMultimemAr(Rule):
    """`--enable-lora` on an Inkling model without `INKLING_MULTIMEM_AR=0`.

    ## What it does
    Reports `--enable-lora` for a model whose `architectures` (config.json)
    name an Inkling class, unless the launch sets `INKLING_MULTIMEM_AR=0`.

    ## Why
    Inkling's fused multimem all-reduce (on by default) bypasses the
    LoRA-wrapped layers on decode-sized batches, which would silently drop
    the adapters there. `LoRAConfig.verify_with_model_config` stops the
    launch: "Inkling LoRA requires INKLING_MULTIMEM_AR=0: the Lamport
    fused-collective path bypasses the LoRA-wrapped wo_ud and dense
    down_proj layers on decode-sized batches, silently dropping their LoRA.
    Set INKLING_MULTIMEM_AR=0."

    ## Example
    ```sh
    vllm serve inkling-ai/Inkling --enable-lora
    ```

    ## Fix
    Set `INKLING_MULTIMEM_AR=0` in the launch's environment, or run without
    LoRA.

    ## Evidence
    A written `--enable-lora`, the model's `architectures` from its
    config.json (an unknown model keeps the rule silent) and the variable
    as the launch sets it (unset means vLLM's default, "1"; a value only
    known at run time keeps the rule silent).

    ## vLLM source
    `LoRAConfig.verify_with_model_config`, after the `SupportsLoRA` check
    (SL320).
    """

    code = "SL902"
    name = "inkling-lora-multimem-ar"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enable-lora"
    requires = ("--enable-lora",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if switch(inv, "enable_lora") is not True:
            return
        lora = value_of(inv, "enable_lora")
        if lora.how != "flag":
            return
        cfg = model_config(ctx)
        archs = cfg.get("architectures") if cfg else None
        if not isinstance(archs, list) or not any(isinstance(a, str) and "Inkling" in a for a in archs):
            return
        var = inv.env.get(_ENV)
        if var is None and defaults_unknown(inv):
            return  # a --config file: the launch's environment is not in it
        if var is not None and (var.value is None or var.value == "0"):
            return
        note = model_note(ctx)
        yield finding(ctx, lora.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key,
                      related_to=[note] if note else None)
