"""SL908: `--engram-config` for a model without n-gram embedding layers."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, vllm_message
from ._shared import engram_config, has_engram_layers, storage_problem

_CHECK = VllmCheck("engram.requires_engram_model", "embeddings and non-empty n-gram layer ids.",
                   "vllm/config/engram.py")


class EngramConfigRequiresEngramModel(Rule):
    """`--engram-config` on a model without Engram (n-gram) embeddings.

    ## What it does
    Reports `--engram-config` when the model is not one with n-gram
    embedding layers: `DeepseekV41ForCausalLM` with `engram_layer_ids`, or
    `Qwen4ExpForCausalLM`/`Qwen4ExpForConditionalGeneration` with
    `ple_layer_ids`, in its config.json.

    ## Why
    `--engram-config` places the n-gram embedding tables (CPU offload,
    sharing between data-parallel replicas); a model without them has
    nothing to configure. `VllmConfig` stops the launch: "EngramConfig
    requires a model with supported Engram embeddings and non-empty n-gram
    layer ids."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --engram-config '{}'
    ```

    ## Fix
    Drop `--engram-config`.

    ## Evidence
    The flag as written (`null` turns it off) and the model's architecture
    and layer ids from its config.json; an architecture only inferred from
    the name, or a model servelint cannot read, keeps the rule silent, as
    does a storage combination `EngramConfig` refuses first (SL909).

    ## vLLM source
    `EngramConfig.verify_model_config`, called from
    `VllmConfig._resolve_and_verify_engram_config`.
    """

    code = "SL908"
    name = "engram-config-requires-engram-model"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--engram-config"
    requires = ("--engram-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        cfg = engram_config(ctx)
        if cfg is None or storage_problem(ctx, cfg.value) or has_engram_layers(ctx) is not False:
            return
        note = model_note(ctx)
        yield finding(ctx, cfg.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key,
                      note=f"{ctx.architecture} has no n-gram embedding layers",
                      related_to=[note] if note else None)
