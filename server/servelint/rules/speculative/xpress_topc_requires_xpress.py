"""SL412: `xpress_topc` with a draft that is not an XPress DFlash drafter."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import int_key, key_finding, settled_method, speculative_written

_CHECK = VllmCheck("speculative.xpress_topc", "xpress_topc is only supported by XPress", "vllm/config/speculative.py")
# ``XPRESS_ARCHITECTURES`` (vllm/config/speculative.py, 0.33.0).
_XPRESS = frozenset({"Qwen3XPressModel", "DFlashQwen3XPressModel"})


class XpressTopcRequiresXpress(Rule):
    """`xpress_topc` set for a draft that is not an XPress DFlash drafter.

    ## What it does
    Reports `xpress_topc` in a speculative config that loads a draft model
    (any method but the n-gram, suffix and custom ones, which never read
    it) when the method is not `dflash`, or the DFlash draft's config.json
    names no XPress architecture.

    ## Why
    `xpress_topc` narrows the candidates of XPress's refinement passes,
    which only an XPress DFlash checkpoint has. vLLM stops with
    "xpress_topc is only supported by XPress".

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V3 --speculative-config \\
        '{"method": "mtp", "num_speculative_tokens": 1, "xpress_topc": 64}'
    ```

    ## Fix
    Remove `xpress_topc`, or use it with an XPress DFlash draft
    (`"method": "dflash"`).

    ## Evidence
    The speculative config as written; for `dflash`, the draft's
    config.json (silent when it is not at hand).

    ## vLLM source
    `SpeculativeConfig.__post_init__`, in the branch that loads a draft model.
    """

    code = "SL412"
    name = "xpress-topc-requires-xpress"
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
        if p is None or p.branch != "draft" or int_key(p.args, "xpress_topc") is None:
            return
        method = settled_method(p)
        if method is None:
            return
        if method == "dflash":
            draft = p.draft
            archs = draft.get("architectures") if draft is not None else None
            if not isinstance(archs, list) or draft.get("model_type") in ("eagle", "speculators"):
                return
            if set(archs) & _XPRESS:
                return
            note = f"the DFlash draft is {archs[0] if archs else 'not an XPress model'}"
        else:
            note = f"the method is {method!r}"
        yield key_finding(ctx, p.args, "xpress_topc", _CHECK.needle, _CHECK.key, note=note)
