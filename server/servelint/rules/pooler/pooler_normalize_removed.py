"""SL916: `--pooler-config` with the removed parameter `normalize`."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("pooler.normalize_removed", "Parameter `normalize` was removed; use `use_activation` instead.",
                   "vllm/config/pooler.py")


class PoolerNormalizeRemoved(Rule):
    """`--pooler-config` with the removed parameter `normalize`.

    ## What it does
    Reports a `--pooler-config` that has the key `normalize` (whatever its
    value, `null` included), as JSON or as the dotted key
    `--pooler-config.normalize true`.

    ## Why
    `normalize` was replaced by `use_activation`. `PoolerConfig`'s "before"
    validator looks for the key before any field is validated, so vLLM
    refuses the flag while parsing it: "argument --pooler-config: 1
    validation error for PoolerConfig ... Parameter `normalize` was
    removed; use `use_activation` instead." (also when other keys of the
    object are wrong).

    ## Example
    ```sh
    vllm serve intfloat/e5-mistral-7b-instruct --pooler-config '{"normalize": true}'
    ```

    ## Fix
    Write `use_activation` instead of `normalize`.

    ## Evidence
    The written `--pooler-config` only (dotted keys merged); no model facts.
    invalid-value (SL103) also reports the key, which is no `PoolerConfig`
    field.

    ## vLLM source
    `PoolerConfig.reject_removed_parameters`, the model validator that runs
    first.
    """

    code = "SL916"
    name = "pooler-normalize-removed"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--pooler-config"
    requires = ("--pooler-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        cfg = json_of(ctx.invocation, "pooler_config")
        if cfg.how != "flag" or not cfg.known or not isinstance(cfg.value, dict) or "normalize" not in cfg.value:
            return
        yield finding(ctx, cfg.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key)
