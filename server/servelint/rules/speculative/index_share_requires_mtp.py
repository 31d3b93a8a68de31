"""SL414: `index_share_for_mtp_iteration` without MTP."""

from __future__ import annotations

from typing import Iterable

from ...derive.speculative import proposer
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule
from ._shared import key_finding, settled_method, speculative_written

_CHECK = VllmCheck(
    "speculative.index_share_mtp", "index_share_for_mtp_iteration is only supported with method='mtp'",
    "vllm/config/speculative.py",
)


class IndexShareRequiresMtp(Rule):
    """`index_share_for_mtp_iteration` in a speculative config that does not use MTP.

    ## What it does
    Reports `index_share_for_mtp_iteration` (true or false) in a speculative
    config whose method, as vLLM settles it, is not `mtp`, or that has
    neither `model` nor `num_speculative_tokens` (vLLM then builds no draft
    config for the setting to go to).

    ## Why
    The option overrides whether MTP iterations reuse the first step's
    sparse indices, a field of the MTP draft's config. vLLM stops with
    "index_share_for_mtp_iteration is only supported with method='mtp'".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --speculative-config \\
        '{"method": "ngram", "num_speculative_tokens": 3, "index_share_for_mtp_iteration": true}'
    ```

    ## Fix
    Remove the key, or use it with `"method": "mtp"` on a model with MTP
    layers.

    ## Evidence
    The speculative config as written; for a `model` without `method`, the
    draft's name or config.json decides the method.

    ## vLLM source
    `SpeculativeConfig.__post_init__`, after the per-method branches.
    """

    code = "SL414"
    name = "index-share-requires-mtp"
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
        if p is None or p.fails is not None or not isinstance(p.args.get("index_share_for_mtp_iteration"), bool):
            return
        if p.branch in ("none", "suffix"):
            note = "no draft model config is built without a model or a token count"
        else:
            method = settled_method(p)
            if method is None or method == "mtp":
                return
            note = f"the method is {method!r}"
        yield key_finding(ctx, p.args, "index_share_for_mtp_iteration", _CHECK.needle, _CHECK.key, note=note)
