"""SL315: `num_speculative_tokens` without a draft model for a method that needs one."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding
from ._shared import speculative_written


class SpecTokensWithoutModel(Rule):
    """`num_speculative_tokens` without a draft model for a method that needs one.

    ## What it does
    Reports a speculative config that sets `num_speculative_tokens` but no
    `model`, when the method needs a draft model or head: no `method`
    (vLLM then assumes `draft_model`), `draft_model`, `eagle`, `eagle3`,
    `dflash` (and `medusa`, `mlp_speculator` up to 0.32.0). `ngram`,
    `ngram_gpu`, `suffix`, `mtp` and `dspark` need no model.
    `--spec-method`, `--spec-model` and `--spec-tokens` count as the keys
    they set.

    ## Why
    vLLM stops while building its config: "num_speculative_tokens was
    provided but without speculative model."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "eagle3", "num_speculative_tokens": 3}'
    ```

    ## Fix
    Add `"model"` (the draft model or EAGLE head), or use a method without
    one (`"method": "ngram"`, or `"mtp"` for models with MTP layers).

    ## Evidence
    The speculative config as written (`--speculative-config` and its
    dotted keys, the `--spec-*` shortcuts, as vLLM merges them); silent
    when a part of it is only known at run time, or when vLLM refuses the
    dict for another reason first (an unknown key, a shortcut repeating a
    key).

    ## vLLM source
    `SpeculativeConfig.__post_init__`; the shortcuts are merged in
    `EngineArgs.create_speculative_config` (vllm/engine/arg_utils.py).
    """

    code = "SL315"
    vllm_checks = (VllmCheck("spec_no_model", "num_speculative_tokens was provided but without speculative model.", "vllm/config/speculative.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "spec-num-tokens-without-model"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.fails != "no_model":
            return
        message = "num_speculative_tokens was provided but without speculative model."
        note = "no method means draft_model" if p.args.method is None else f"method {p.method} needs a model"
        yield finding(ctx, p.args.anchor, message, "spec_no_model", note=note)
