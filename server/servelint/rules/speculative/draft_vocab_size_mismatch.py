"""SL318: a draft model whose vocabulary differs from the target's."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.model import text_config
from ...derive.speculative import SPECULATIVE_DESTS, draft_model_config, is_custom_proposer_path, speculative_args
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding


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
    id's, which a pinned `revision` or `--config-format mistral` rules out);
    silent when either is not at hand, or when vLLM may take the draft for EAGLE, DFlash, DSpark,
    MTP, Medusa or an MLP speculator from its name or its config.

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
    reads = SPECULATIVE_DESTS | {"model", "hf_overrides"}

    def check(self, ctx: Context) -> Iterable[Finding]:
        s = speculative_args(ctx)
        if s is None:
            return
        method, draft, tokens = s.method, s.model, s.tokens
        if method not in (None, "draft_model") or not isinstance(draft, str) or not is_int(tokens):
            return
        if s.get("use_heterogeneous_vocab") not in (None, False):
            return
        low = draft.lower()
        if draft in ("ngram", "[ngram]") or is_custom_proposer_path(draft):
            return
        if any(k in low for k in ("eagle-", "eagle3", "dflash", "dspark")):
            return  # vLLM picks that method from the name
        target = text_config(ctx)
        dcfg = draft_model_config(ctx, draft)
        if target is None or dcfg is None:
            return
        archs = dcfg.get("architectures") or []
        if not isinstance(archs, list) or any(
            isinstance(a, str) and any(k in a for k in ("DSpark", "MuseGlimmer", "Eagle", "Medusa", "MLPSpeculator"))
            for a in archs
        ):
            return
        mtype = dcfg.get("model_type")
        if not isinstance(mtype, str) or mtype.endswith("_mtp") or mtype in ("mtp", "medusa", "mlp_speculator", "eagle"):
            return
        dtext = dcfg.get("text_config") if isinstance(dcfg.get("text_config"), dict) else dcfg
        tv, dv = target.get("vocab_size"), dtext.get("vocab_size")
        if not (is_int(tv) and is_int(dv)) or tv == dv:
            return
        message = (
            f"Target and draft model should have the same vocabulary size. Target model vocab_size={tv}. "
            f"Draft model vocab_size={dv}. Using models with different tokenizers can cause out-of-bounds "
            "errors during speculative decoding."
        )
        yield finding(ctx, s.anchor, message, "draft_vocab")
