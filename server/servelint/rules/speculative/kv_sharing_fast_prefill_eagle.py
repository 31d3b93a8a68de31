"""SL442: `--kv-sharing-fast-prefill` with an EAGLE-style drafter (EAGLE, MTP, DFlash, DSpark)."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.speculative import EAGLE_LIKE_METHODS, proposer
from ...diagnostics import Category, Related, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, path_of
from ._shared import key_site, settled_method

_CHECK = VllmCheck(
    "speculative.kv_sharing_fast_prefill_eagle", "Fast prefill optimization for KV sharing is not compatible with EAGLE",
    "vllm/config/vllm.py",
)
_MESSAGE = ("Fast prefill optimization for KV sharing is not compatible with EAGLE as EAGLE requires correct "
            "logits for all tokens while fast prefill gives incorrect logits for prompt tokens.")


class KvSharingFastPrefillEagle(Rule):
    """`--kv-sharing-fast-prefill` with EAGLE, MTP, DFlash or DSpark speculative decoding.

    ## What it does
    Reports `--kv-sharing-fast-prefill` when the speculative method, as
    vLLM settles it, drafts from the target's hidden states: `eagle`,
    `eagle3`, `mtp`, `dflash` or `dspark`.

    ## Why
    Fast prefill skips computing the logits of prompt tokens, which those
    drafters need. vLLM stops with "Fast prefill optimization for KV sharing
    is not compatible with EAGLE as EAGLE requires correct logits for all
    tokens while fast prefill gives incorrect logits for prompt tokens."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --kv-sharing-fast-prefill \\
        --speculative-config '{"method": "mtp", "num_speculative_tokens": 1}'
    ```

    ## Fix
    Drop `--kv-sharing-fast-prefill`, or use n-gram or draft-model speculation.

    ## Evidence
    The flags as written; for a `model` without `method`, the draft's name
    or config.json decides the method.

    ## vLLM source
    `VllmConfig.__post_init__`.
    """

    code = "SL442"
    name = "kv-sharing-fast-prefill-eagle"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--kv-sharing-fast-prefill"
    partners = ("--speculative-config",)
    requires = ("--kv-sharing-fast-prefill", "--speculative-config")

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.last("kv_sharing_fast_prefill") is None:
            return
        fast = value_of(inv, "kv_sharing_fast_prefill")
        if fast.how != "flag" or fast.value is not True:
            return
        p = proposer(ctx)
        method = settled_method(p)
        if method not in EAGLE_LIKE_METHODS:
            return
        flag = fast.flags[-1]
        spec_flag, span = key_site(ctx, p.args, "method")
        related = [Related(path_of(ctx, spec_flag), span, f"speculative method {method}")]
        yield finding(ctx, flag, _MESSAGE, _CHECK.key, related_to=related)
