"""SL770: a `backend_per_kind` key that is not a KV cache group kind."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Category, Severity
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import UNKNOWN_KIND, attention_config_problems, note


class AttentionBackendPerKindUnknownKind(Rule):
    """A `backend_per_kind` key vLLM does not know.

    ## What it does
    Reports a key of `--attention-config`'s `backend_per_kind` that is not a
    KV cache group kind (`KVCacheSpecKind`: `full_attention`,
    `mla_attention`, `sliding_window`, `mamba`, ...; generated per release).

    ## Why
    While argparse reads `--attention-config`, vLLM stops: "Unknown KV cache
    group kind 'full' in backend_per_kind. Valid kinds are: ...".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B -ac '{"backend_per_kind": {"full": "FLASH_ATTN"}}'
    ```

    ## Fix
    Use one of the kinds vLLM lists.

    ## Evidence
    The JSON of `--attention-config` as written (dotted keys merged, a
    `--config` key too). Only the first problem of the map is reported
    (vLLM stops there: an unknown backend name is `attention-backend-unknown`).

    ## vLLM source
    `AttentionConfig.validate_backend_per_kind_before`.
    """

    code = "SL770"
    name = "attention-backend-per-kind-unknown-kind"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    vllm_checks = (UNKNOWN_KIND,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--attention-config"
    requires = ("--attention-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        got = attention_config_problems(ctx.invocation)
        if got is None:
            return
        problems, flag = got
        for p in problems:
            if p.check is UNKNOWN_KIND:
                yield finding(ctx, flag, vllm_message(ctx, UNKNOWN_KIND.key, *p.values), UNKNOWN_KIND.key,
                              note=note(p, f"key 'backend_per_kind' of {flag.canonical}"))
