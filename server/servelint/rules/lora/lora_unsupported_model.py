"""SL320: `--enable-lora` for a model class without LoRA support."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of, written
from ...derive.model import arch_facts
from ...diagnostics import Applicability, Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, inferred_architecture, removal_fix


class LoraUnsupportedModel(Rule):
    """`--enable-lora` for a model class without LoRA support.

    ## What it does
    From 0.33.0, reports `--enable-lora` when the model's architecture does
    not implement the `SupportsLoRA` interface in that release (Mamba,
    Mamba2 and many multimodal models...). When the architecture is only
    inferred from the model's name the diagnostic is a warning.

    ## Why
    vLLM 0.33.0 checks this while building its config and stops with "LoRA
    is not supported for Mamba2ForCausalLM (...). Supported models implement
    the `SupportsLoRA` interface. Run this model without `enable_lora`."
    Earlier releases failed later, when loading the model.

    ## Example
    ```sh
    vllm serve state-spaces/mamba-2.8b-hf --enable-lora
    ```

    ## Fix
    Remove `--enable-lora` (and `--lora-modules`), or use a model with LoRA
    support.

    ## Fix safety
    Unsafe: removing `--enable-lora` (and its adapters) turns a feature off.

    ## Evidence
    A written `--enable-lora` and the model's architecture: from its
    config.json, else servelint's table of known model ids; its
    `supports_lora` comes from the release's generated model registry. An
    architecture only inferred from the model's name makes it a warning
    that says so; a name the table maps to several architectures,
    `--model-impl`, `--runner` or `--convert` make it silent.

    ## vLLM source
    `LoRAConfig.verify_with_model_config` (`ModelConfig.is_lora_supported`:
    `_ModelInfo.supports_lora`).
    """

    code = "SL320"
    fixes = frozenset({Applicability.UNSAFE})
    vllm_checks = (VllmCheck("lora_arch", "`SupportsLoRA` interface. Run this model without", "vllm/config/lora.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "lora-unsupported-model"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.33.0"
    anchor = "--enable-lora"
    requires = ("--convert", "--enable-lora", "--hf-overrides", "--model-impl", "--runner")
    reads = frozenset({"enable_lora", "model", "hf_overrides", "model_impl", "runner", "convert"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        lora = value_of(inv, "enable_lora")
        if lora.how != "flag" or not lora.value:
            return
        if any(written(inv, d) for d in ("model_impl", "runner", "convert")):
            return
        arch = arch_facts(ctx)
        if arch is None or arch.supports_lora is not False:
            return
        model = ctx.model
        if model is not None and model.alternatives:
            return
        message = (
            f"LoRA is not supported for {ctx.architecture} ({inv.model_name}). Supported models implement "
            "the `SupportsLoRA` interface. Run this model without `enable_lora`."
        )
        note = inferred_architecture(ctx)
        severity = Severity.WARNING if note else None
        fix = removal_fix(ctx, written(inv, "enable_lora"), "Remove --enable-lora")
        yield finding(ctx, lora.flags[-1], message, "lora_arch", note=note, severity=severity,
                      fixes=[fix] if fix else None)
