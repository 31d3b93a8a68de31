"""SL660: KV cache events turned on with prefix caching off."""

from __future__ import annotations

from typing import Iterable

from ...derive.cache import prefix_caching
from ...derive.flags import json_keys_known, json_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message

_CHECK = VllmCheck("vllm.kv_events_without_prefix_caching", "KV cache events are on, but prefix caching is not enabled.",
                   "vllm/config/vllm.py")


class KvEventsWithoutPrefixCaching(Rule):
    """`"enable_kv_cache_events": true` in `--kv-events-config` with prefix caching off.

    ## What it does
    Warns about a `--kv-events-config` that turns KV cache events on when
    prefix caching is off: `--no-enable-prefix-caching`, or a model whose
    default leaves it off (attention-free and encoder-decoder models, and
    hybrid ones up to 0.27.1).

    ## Why
    KV cache events report blocks the prefix cache stores and evicts;
    without prefix caching there are none to report. vLLM starts anyway
    and logs "KV cache events are on, but prefix caching is not enabled.
    Use --enable-prefix-caching to enable."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --no-enable-prefix-caching --kv-events-config '{"enable_kv_cache_events": true}'
    ```

    ## Fix
    Turn prefix caching on (`--enable-prefix-caching`), or drop the KV
    events config.

    ## Evidence
    The KV events config's object as written and prefix caching as
    `derive.cache.prefix_caching` resolves it (silent when either is not
    known).

    ## vLLM source
    `VllmConfig.__post_init__`, before the platform's config hook.
    """

    code = "SL660"
    name = "kv-events-without-prefix-caching"
    category = Category.INCOMPATIBLE
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--kv-events-config"
    partners = ("--enable-prefix-caching",)
    requires = ("--kv-events-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        events = json_of(inv, "kv_events_config")
        if events.how != "flag" or not events.flags or not json_keys_known(inv, "kv_events_config", events.value):
            return
        if events.value.get("enable_kv_cache_events") is not True:
            return
        caching = prefix_caching(ctx)
        if caching.value is not False:
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        rel = related(ctx, caching.flags[-1:], "prefix caching turned off by {flag}")
        yield finding(ctx, events.flags[-1], message, _CHECK.key, related_to=rel,
                      note=caching.why if caching.how != "flag" else "")
