"""SL413: `dspark_draft_topk` outside Qwen3 DSpark drafts."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import draft_loads, int_key, key_finding, settled_method, speculative_written

_PATH = "vllm/config/speculative.py"
_METHOD = VllmCheck("speculative.dspark_topk_method", "dspark_draft_topk is only supported by DSpark", _PATH, whole=True)
_RANGE = VllmCheck("speculative.dspark_topk_range", "dspark_draft_topk must be between 1 and the draft vocabulary size ({})", _PATH)
_ARCH = VllmCheck("speculative.dspark_topk_arch", "dspark_draft_topk is only supported by Qwen3DSparkModel", _PATH)
# Drafts that keep (or get) a Qwen3 DSpark architecture, or whose rewrite
# servelint does not follow: the architecture check is left to vLLM.
_QWEN3_DSPARK = frozenset({"Qwen3DSparkModel", "Qwen3OmniDSparkModel", "DSparkDraftModel"})


class DsparkDraftTopkUnsupported(Rule):
    """`dspark_draft_topk` with a method other than DSpark, or a DSpark draft other than Qwen3's.

    ## What it does
    Reports `dspark_draft_topk` in a speculative config that loads a draft
    model when the method is not `dspark`; and with `dspark`, when the
    draft is not a Qwen3 DSpark checkpoint (the served model itself, or a
    draft whose config.json names another architecture, which vLLM treats
    as a DeepSeek-V4 DSpark draft), or when the value exceeds the draft's
    vocabulary.

    ## Why
    The top-k narrowing is implemented by the Qwen3 DSpark drafter only.
    vLLM stops with "dspark_draft_topk is only supported by DSpark",
    "dspark_draft_topk is only supported by Qwen3DSparkModel and
    Qwen3OmniDSparkModel" (0.28.0: "... by Qwen3DSparkModel") or
    "dspark_draft_topk must be between 1 and the draft vocabulary size
    (151936)".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config \\
        '{"method": "dspark", "num_speculative_tokens": 7, "dspark_draft_topk": 32}'
    ```

    ## Fix
    Remove `dspark_draft_topk`, or use it with a Qwen3 DSpark draft
    checkpoint in `model`.

    ## Evidence
    The speculative config as written and the draft's config.json (the
    served model's for `dspark` without `model`).

    ## vLLM source
    `SpeculativeConfig.__post_init__`, in the branch that loads a draft model.
    """

    code = "SL413"
    name = "dspark-draft-topk-unsupported"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_METHOD, _RANGE, _ARCH)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--speculative-config"
    requires = ("--speculative-config", "--spec-method", "--spec-model", "--spec-tokens")

    def check(self, ctx: Context) -> Iterable[Finding]:
        if not speculative_written(ctx):
            return
        p = proposer(ctx)
        if p is None or p.branch != "draft":
            return
        topk = int_key(p.args, "dspark_draft_topk")
        method = settled_method(p)
        if topk is None or topk < 1 or method is None:
            return
        if method != "dspark":
            yield key_finding(ctx, p.args, "dspark_draft_topk", _METHOD.needle, _METHOD.key,
                          note=f"the method is {method!r}")
            return
        if not draft_loads(ctx, p):
            return
        draft = p.draft
        archs = draft.get("architectures")
        if set(archs) & _QWEN3_DSPARK:
            return
        vocab = draft.get("draft_vocab_size") or draft.get("vocab_size")
        if not isinstance(vocab, int) or isinstance(vocab, bool):
            return
        if topk > vocab:
            message = f"dspark_draft_topk must be between 1 and the draft vocabulary size ({vocab})"
            yield key_finding(ctx, p.args, "dspark_draft_topk", message, _RANGE.key)
            return
        site = validators.site(_ARCH.key, ctx.version)
        if site is None:
            return
        yield key_finding(ctx, p.args, "dspark_draft_topk", site.template, _ARCH.key,
                      note=f"the draft is {archs[0]}, which vLLM loads as a DeepSeek-V4 DSpark draft")
