"""SL334: `--pooler-config` with `logit_sigma` 0."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import pooler_config

_CHECK = VllmCheck("pooler.logit_sigma_zero", "logit_sigma cannot be 0 (division by zero)", "vllm/config/pooler.py")


class PoolerLogitSigmaZero(Rule):
    """`--pooler-config` whose `logit_sigma` is 0.

    ## What it does
    Reports `"logit_sigma": 0` (or `0.0`) in `--pooler-config`, as JSON or
    as the dotted key `--pooler-config.logit_sigma 0`.

    ## Why
    Classification logits are calibrated as `(logit - logit_mean) /
    logit_sigma`; a sigma of 0 divides by zero. vLLM refuses the flag while
    parsing it: "argument --pooler-config: 1 validation error for
    PoolerConfig ... logit_sigma cannot be 0 (division by zero)".

    ## Example
    ```sh
    vllm serve BAAI/bge-reranker-base --pooler-config '{"logit_mean": 0.5, "logit_sigma": 0}'
    ```

    ## Fix
    Give `logit_sigma` the non-zero scale you calibrated, or leave it out
    (no scaling).

    ## Evidence
    The written `--pooler-config` only (its keys all `PoolerConfig` fields,
    from the release's option schema); no model facts.

    ## vLLM source
    `PoolerConfig.__post_init__`, its first check.
    """

    code = "SL334"
    name = "pooler-logit-sigma-zero"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--pooler-config"
    requires = ("--pooler-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        found = pooler_config(ctx)
        if found is None:
            return
        obj, flags = found
        sigma = obj.get("logit_sigma")
        if isinstance(sigma, bool) or not isinstance(sigma, (int, float)) or sigma != 0:
            return
        yield finding(ctx, flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key)
