"""SL402: a speculative method the draft model does not support (`mtp` on a model without MTP layers)."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import draft_loads, key_finding, speculative_written

_CHECK = VllmCheck("speculative.unsupported_method", "Unsupported speculative method: '{}'", "vllm/config/speculative.py")


class SpecMethodUnsupported(Rule):
    """A speculative method the draft model cannot run, such as `mtp` on a model without MTP layers.

    ## What it does
    Reports a speculative config whose method needs a draft of its own kind
    when the draft is not one: `mtp` (or a model-specific name such as
    `deepseek_mtp`) on a model whose config.json describes no MTP module
    vLLM knows (Llama, Qwen3, Mistral, ...), and, up to 0.32.0, `medusa` or
    `mlp_speculator` with a draft of another type. Without `model`, the
    draft of `mtp` is the served model itself.

    ## Why
    vLLM loads the draft, tries to recognise the method from it (EAGLE,
    DFlash, DSpark by name, MTP by the model type its MTP override gives
    the config) and, when none fits and the method is not `draft_model`,
    stops with `NotImplementedError`: "Unsupported speculative method:
    'mtp'".

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "mtp", "num_speculative_tokens": 1}'
    ```

    ## Fix
    Use MTP only with models that ship MTP layers (DeepSeek-V3/R1, GLM-4.5,
    Qwen3-Next, MiMo, ...); for other models use `ngram`, an EAGLE head or a
    small draft model of the same family.

    ## Evidence
    The speculative config as written and the draft's config.json (the
    served model's for `mtp` without `model`, a local directory or the
    Hugging Face cache otherwise). Silent when the config is not at hand,
    when `--hf-overrides` is written, or when the model type or
    architecture is one vLLM's MTP override rewrites (servelint does not
    model all of those rewrites).

    ## vLLM source
    `SpeculativeConfig.__post_init__`, the branch that loads the draft
    model and detects the method.
    """

    code = "SL402"
    name = "spec-method-unsupported"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.fails != "unsupported" or not draft_loads(ctx, p):
            return
        mtype = p.draft.get("model_type")
        whose = "the served model" if p.target_draft else "the draft model"
        note = f"{whose}'s model type {mtype!r} has no {p.method} module vLLM {ctx.version} knows"
        yield key_finding(ctx, p.args, "method", f"Unsupported speculative method: '{p.method}'", _CHECK.key, note=note)
