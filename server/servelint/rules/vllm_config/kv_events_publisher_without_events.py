"""SL661: a KV events publisher with KV cache events off."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import json_keys_known, json_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("vllm.kv_events_publisher_without_events", "but the scheduler is configured to publish them.",
                   "vllm/config/vllm.py")


class KvEventsPublisherWithoutEvents(Rule):
    """`--kv-events-config` with a `publisher` but `enable_kv_cache_events` off.

    ## What it does
    Warns about a `--kv-events-config` that names a publisher other than
    `null` (`"zmq"`) without `"enable_kv_cache_events": true`.

    ## Why
    The publisher has nothing to publish while KV cache events are off
    (the default). vLLM starts anyway and logs "KV cache events are
    disabled, but the scheduler is configured to publish them. Modify
    KVEventsConfig.enable_kv_cache_events to True to enable."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --kv-events-config '{"publisher": "zmq", "endpoint": "tcp://*:5557"}'
    ```

    ## Fix
    Add `"enable_kv_cache_events": true`, or drop the KV events config.

    ## Evidence
    The KV events config's object as written (silent when it is only known
    at run time). Without a written publisher, `KVEventsConfig` picks
    `zmq` only when events are on, so only a written one can trigger this.

    ## vLLM source
    `VllmConfig.__post_init__`; `KVEventsConfig.__post_init__` picks the
    default publisher (vllm/config/kv_events.py).
    """

    code = "SL661"
    name = "kv-events-publisher-without-events"
    category = Category.CONFIG
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--kv-events-config"
    requires = ("--kv-events-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        events = json_of(inv, "kv_events_config")
        if events.how != "flag" or not events.flags or not json_keys_known(inv, "kv_events_config", events.value):
            return
        publisher = events.value.get("publisher")
        if not isinstance(publisher, str) or publisher == "null":
            return
        if events.value.get("enable_kv_cache_events", False) is not False:
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        yield finding(ctx, events.flags[-1], message, _CHECK.key)
