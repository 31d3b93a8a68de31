"""SL446: `xpress_topc` larger than the XPress draft's vocabulary."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import draft_loads, int_key, key_finding, settled_method, speculative_written
from .xpress_topc_requires_xpress import _XPRESS

_CHECK = VllmCheck("speculative.xpress_topc_range", "xpress_topc must be between 0 and the draft ",
                   "vllm/config/speculative.py")


class XpressTopcAboveDraftVocab(Rule):
    """`xpress_topc` larger than the XPress draft's vocabulary.

    ## What it does
    Reports an XPress DFlash draft (method `dflash`, a draft whose
    config.json names `Qwen3XPressModel` or `DFlashQwen3XPressModel`) whose
    `xpress_topc` (the speculative config's, else the draft config's own)
    exceeds the draft's vocabulary: its `draft_vocab_size`, else its
    `vocab_size`.

    ## Why
    `xpress_topc` is how many of the drafter's top candidates each XPress
    refinement pass scores; there are only as many as the vocabulary has.
    vLLM stops with "xpress_topc must be between 0 and the draft vocabulary
    size (151936)".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config \\
        '{"method": "dflash", "model": "./qwen3-xpress", "num_speculative_tokens": 3, "xpress_topc": 200000}'
    ```

    ## Fix
    Lower `xpress_topc` to at most the draft's vocabulary size, or remove it.

    ## Evidence
    The speculative config as written (`num_speculative_tokens` written)
    and the draft's config.json, its architecture registered in the release
    and its `vocab_size` written; silent for a draft whose `model_type` is
    `eagle` or `speculators` (its own config class), and when the draft's
    `n_predict` does not divide the token count (vLLM checks that first).

    ## vLLM source
    `SpeculativeConfig.__post_init__`, in the branch that loads a draft
    model, after "xpress_topc is only supported by XPress" (SL412).
    """

    code = "SL446"
    name = "xpress-topc-above-draft-vocab"
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
        if settled_method(p) != "dflash" or p.branch != "draft" or not draft_loads(ctx, p) or p.target_draft:
            return
        draft = p.draft
        archs = draft.get("architectures")
        if not isinstance(archs, list) or not set(archs) & _XPRESS or draft.get("model_type") in ("eagle", "speculators"):
            return
        tokens = int_key(p.args, "num_speculative_tokens")
        n = draft.get("n_predict")
        if tokens is None or (n is not None and (not is_int(n) or n <= 0 or (tokens > n and tokens % n != 0))):
            return
        written = p.args.get("xpress_topc")
        topc = written if written is not None else draft.get("xpress_topc")
        if not is_int(topc):
            return
        vocab = draft.get("draft_vocab_size") or draft.get("vocab_size")
        if not is_int(vocab) or 0 <= topc <= vocab:
            return
        message = f"xpress_topc must be between 0 and the draft vocabulary size ({vocab})"
        if written is not None:
            yield key_finding(ctx, p.args, "xpress_topc", message, _CHECK.key)
        else:
            yield key_finding(ctx, p.args, "model", message, _CHECK.key,
                              note=f"the draft's config.json sets xpress_topc to {topc}")
