"""SL337: `--mm-shm-cache-max-object-size-mb` without the shared-memory processor cache."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import file_value, int_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, vllm_message
from ._shared import builds_multimodal_config, model_related

_CHECK = VllmCheck("multimodal.shm_object_size_requires_shm",
                   "'mm_shm_cache_max_object_size_mb' should only be set when", "vllm/config/multimodal.py")


class MmShmObjectSizeRequiresShmCache(Rule):
    """`--mm-shm-cache-max-object-size-mb` set while the processor cache is not `shm`.

    ## What it does
    Reports a `--mm-shm-cache-max-object-size-mb` other than its default
    (128) when `--mm-processor-cache-type` is not `shm` (its default is
    `lru`), for a multimodal model.

    ## Why
    The object-size limit only applies to the shared-memory cache; with the
    LRU cache it would silently do nothing, so vLLM stops with
    "'mm_shm_cache_max_object_size_mb' should only be set when
    'mm_processor_cache_type' is 'shm'."

    ## Example
    ```sh
    vllm serve Qwen/Qwen2.5-VL-7B-Instruct --mm-shm-cache-max-object-size-mb 256
    ```

    ## Fix
    Add `--mm-processor-cache-type shm`, or drop
    `--mm-shm-cache-max-object-size-mb`.

    ## Evidence
    The two flags as written (or the release's defaults) and the model's
    architecture, a multimodal one in the release's registry (vLLM builds
    no multimodal config, and checks nothing, for a text-only model).

    ## vLLM source
    `MultiModalConfig._validate_multimodal_config`, its first check.
    """

    code = "SL337"
    name = "mm-shm-object-size-requires-shm-cache"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--mm-shm-cache-max-object-size-mb"
    partners = ("--mm-processor-cache-type",)
    requires = ("--mm-shm-cache-max-object-size-mb",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        size = int_of(inv, "mm_shm_cache_max_object_size_mb")
        opt = inv.knowledge.by_dest.get("mm_shm_cache_max_object_size_mb")
        if size.how != "flag" or opt is None or opt.default != 128 or size.value == 128:
            return
        cache = file_value(inv, "mm_processor_cache_type")
        if not cache.known or cache.value == "shm":
            return
        if not builds_multimodal_config(ctx):
            return
        rel = related(ctx, cache.flags, "processor cache type set by {flag}") + model_related(ctx)
        yield finding(ctx, size.flags[-1], vllm_message(ctx, _CHECK.key), _CHECK.key, related_to=rel)
