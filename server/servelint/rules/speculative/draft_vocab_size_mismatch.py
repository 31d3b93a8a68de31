"""SL318: a draft model whose vocabulary differs from the target's."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.model import hf_text_config, text_config
from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding
from ._shared import draft_loads, final_tokens, settled_method, speculative_written


class DraftVocabSizeMismatch(Rule):
    """A draft model whose vocabulary differs from the target's.

    ## What it does
    Reports a speculative config whose `model` is a separate draft model
    (method unset or `draft_model`, and not detected by vLLM as EAGLE,
    DFlash, DSpark or MTP from its name or config) when both config.json
    files are at hand (local directories, the Hugging Face cache or
    servelint's bundled copies of Hub ids' config.json) and their
    `vocab_size` differ, unless `use_heterogeneous_vocab` is set.

    ## Why
    Draft tokens are verified by id, so the tokenizers must agree. vLLM
    stops with "Target and draft model should have the same vocabulary size.
    Target model vocab_size=128256. Draft model vocab_size=151936. ..."

    ## Example
    ```sh
    vllm serve meta-llama/Llama-3.1-8B-Instruct \\
        --speculative-config '{"model": "Qwen/Qwen3-0.6B", "num_speculative_tokens": 4}'
    ```

    ## Fix
    Use a draft model of the same family (same tokenizer), or set
    `"use_heterogeneous_vocab": true` where the release supports it.

    ## Evidence
    The speculative config as written and both models' config.json files
    (local directories, the Hugging Face cache, or the bundled copy of a Hub
    id's, which a pinned `revision` or `--config-format mistral` rules out),
    the draft's architecture registered in the release; silent when either
    is not at hand, when no token count is known (written, or the draft's
    `n_predict`), or when vLLM may take the draft for EAGLE, DFlash, DSpark,
    MTP, Medusa or an MLP speculator from its name or its config (what
    `derive.speculative.proposer` cannot settle).

    ## vLLM source
    `SpeculativeConfig.verify_equal_vocab_size_if_draft_model` (called at
    the end of `_verify_args`); the method detection in `__post_init__`.
    """

    code = "SL318"
    vllm_checks = (VllmCheck("draft_vocab", "Target and draft model should have the same vocabulary size.", "vllm/config/speculative.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "draft-vocab-size-mismatch"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if settled_method(p) != "draft_model" or p.branch != "draft" or not draft_loads(ctx, p):
            return
        if p.args.get("use_heterogeneous_vocab") not in (None, False) or final_tokens(p) is None:
            return  # vLLM skips the check; no token count fails _verify_args before it
        target, draft = text_config(ctx), hf_text_config(p.draft)
        if target is None or draft is None:
            return
        tv, dv = target.get("vocab_size"), draft.get("vocab_size")
        if not (is_int(tv) and is_int(dv)) or tv == dv:
            return
        message = (
            f"Target and draft model should have the same vocabulary size. Target model vocab_size={tv}. "
            f"Draft model vocab_size={dv}. Using models with different tokenizers can cause out-of-bounds "
            "errors during speculative decoding."
        )
        yield finding(ctx, p.args.anchor, message, "draft_vocab")
