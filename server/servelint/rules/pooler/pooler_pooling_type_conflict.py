"""SL335: `pooling_type` together with `seq_pooling_type` or `tok_pooling_type`."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import pooler_config

_SEQ = VllmCheck("pooler.pooling_type_vs_seq", "Cannot set both `pooling_type` and `seq_pooling_type`", "vllm/config/pooler.py")
_TOK = VllmCheck("pooler.pooling_type_vs_tok", "Cannot set both `pooling_type` and `tok_pooling_type`", "vllm/config/pooler.py")


class PoolerPoolingTypeConflict(Rule):
    """`--pooler-config` with `pooling_type` and one of its specific forms.

    ## What it does
    Reports a `--pooler-config` that sets `pooling_type` together with
    `seq_pooling_type` or `tok_pooling_type`.

    ## Why
    `pooling_type` is a shorthand that vLLM copies into `seq_pooling_type`
    (CLS, LAST, MEAN) or `tok_pooling_type` (ALL, STEP); with both written
    it cannot tell which one you mean. vLLM refuses the flag while parsing
    it: "Cannot set both `pooling_type` and `seq_pooling_type`" (checked
    first) or "Cannot set both `pooling_type` and `tok_pooling_type`".

    ## Example
    ```sh
    vllm serve intfloat/e5-mistral-7b-instruct --pooler-config '{"pooling_type": "LAST", "seq_pooling_type": "MEAN"}'
    ```

    ## Fix
    Keep one: either `pooling_type`, or the specific `seq_pooling_type` /
    `tok_pooling_type` keys.

    ## Evidence
    The written `--pooler-config` only: its keys all `PoolerConfig` fields
    and the pooling types valid names (pydantic refuses others first).

    ## vLLM source
    `PoolerConfig.__post_init__`, after the `logit_sigma` check.
    """

    code = "SL335"
    name = "pooler-pooling-type-conflict"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_SEQ, _TOK)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--pooler-config"
    requires = ("--pooler-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        obj, flags = pooler_config(ctx) or ({}, ())
        if not obj.get("pooling_type"):
            return
        sigma = obj.get("logit_sigma")
        if isinstance(sigma, (int, float)) and not isinstance(sigma, bool) and sigma == 0:
            return  # vLLM stops at logit_sigma first (SL334)
        if obj.get("seq_pooling_type") is not None:
            key = _SEQ.key
        elif obj.get("tok_pooling_type") is not None:
            key = _TOK.key
        else:
            return
        yield finding(ctx, flags[-1], vllm_message(ctx, key), key)
