"""SL314: a `--kv-cache-dtype` that is not a KV-cache data type."""

from __future__ import annotations

from typing import Iterable

from ...derive.cache import KV_CACHE_DTYPES
from ...derive.flags import value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding


class KvCacheDtypeUnknown(Rule):
    """`--kv-cache-dtype` that is not a KV-cache data type.

    ## What it does
    From 0.33.0, where `--kv-cache-dtype` accepts any string on the command
    line, reports a value that is not one of vLLM's KV-cache types (`auto`,
    `float16`, `bfloat16`, `fp8`, `fp8_e4m3`, `fp8_e5m2`, ...). Up to
    0.32.0 argparse checks the choices and `invalid-value` reports it; from
    0.33.0 `invalid-value` leaves the value to this rule, so a bad value is
    reported once, with vLLM's message.

    ## Why
    vLLM checks the value while building its config: "Invalid
    kv_cache_dtype: 'fp9'. Valid values are: ['auto', 'float16', ...]".
    Values are case-sensitive.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --kv-cache-dtype fp8_e4m3fn
    ```

    ## Fix
    Use one of the listed values. A type that a platform plugin registers
    is not known to servelint: suppress the diagnostic for it.

    ## Evidence
    A written `--kv-cache-dtype` in a release whose parser accepts any
    string for it, and the release's `CacheDType` list.

    ## vLLM source
    `CacheConfig._validate_cache_dtype`; the list: `CacheDType`, mirrored
    by `KV_CACHE_DTYPES` (vllm/config/cache.py).
    """

    code = "SL314"
    vllm_checks = (VllmCheck("kv_unknown", "Invalid kv_cache_dtype: ", "vllm/config/cache.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "kv-cache-dtype-unknown"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR
    since = "0.33.0"
    anchor = "--kv-cache-dtype"
    requires = ("--kv-cache-dtype",)
    reads = frozenset({"kv_cache_dtype"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        kv = value_of(inv, "kv_cache_dtype")
        if kv.how != "flag" or not isinstance(kv.value, str):
            return
        opt = inv.knowledge.by_dest.get("kv_cache_dtype")
        if opt is not None and opt.choices:
            return  # argparse checks it (invalid-value)
        if kv.value in KV_CACHE_DTYPES:
            return
        message = f"Invalid kv_cache_dtype: {kv.value!r}. Valid values are: {list(KV_CACHE_DTYPES)}"
        close = [d for d in KV_CACHE_DTYPES if d == kv.value.lower() or d in kv.value or kv.value in d]
        note = f"did you mean {' or '.join(close[:3])}?" if close else ""
        yield finding(ctx, kv.flags[-1], message, "kv_unknown",
                      message=f"Invalid kv_cache_dtype: {kv.value!r}", note=note)
