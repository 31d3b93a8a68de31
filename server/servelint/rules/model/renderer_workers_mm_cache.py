"""SL362: `--renderer-num-workers` above 1 with the multimodal processor cache on."""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import value_of
from ...derive.model import is_encoder_decoder
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note, related, vllm_message
from ._shared import registry_arch

_ANY = VllmCheck("model.renderer_workers_mm_cache", "multimodal processor cache enabled. The cache is "
                 "not thread-safe and does not support concurrent renderer workers.", "vllm/config/model.py")
_POOLING = VllmCheck("model.renderer_workers_mm_cache_pooling",
                     "multimodal processor cache enabled for pooling models.", "vllm/config/model.py")


def _pooling_runner(ctx: Context, arch) -> bool | None:
    """Whether ``ModelConfig.runner_type`` is "pooling" (``_get_runner_type``):
    a written ``--runner pooling``; with ``auto``, a ``--convert`` other
    than auto/none, or a pooling architecture of the registry.  None when
    servelint cannot tell (a sentence-transformers ``modules.json`` may make
    a generative architecture pool)."""
    inv = ctx.invocation
    runner = value_of(inv, "runner")
    if not runner.known:
        return None
    if runner.value != "auto":
        return runner.value == "pooling"
    convert = value_of(inv, "convert")
    if not convert.known:
        return None
    if convert.value not in ("auto", "none"):
        return True
    if arch.is_pooling_model is True:
        return True
    return None


class RendererWorkersMmCache(Rule):
    """`--renderer-num-workers` above 1 for a multimodal model with the processor cache on.

    ## What it does
    Reports a `--renderer-num-workers` above 1 when the model is multimodal
    (and not encoder-decoder, which turns the cache off) and
    `--mm-processor-cache-gb` is above 0 (its default is 4). From vLLM
    0.27.0 only when the model runs as a pooling model (`--runner pooling`,
    a `--convert` to a pooling task, or an embedding architecture).

    ## Why
    The multimodal processor cache is not thread-safe; vLLM stops with
    "Cannot use --renderer-num-workers > 1 with the multimodal processor
    cache enabled for pooling models. ..." (0.25.0-0.26.0: "... with the
    multimodal processor cache enabled. The cache is not thread-safe ...").

    ## Example
    ```sh
    vllm serve Qwen/Qwen2-Audio-7B-Instruct --runner pooling --convert embed --renderer-num-workers 4
    ```

    ## Fix
    Use `--renderer-num-workers 1` (the default), or turn the cache off with
    `--mm-processor-cache-gb 0`.

    ## Evidence
    The written flags (or the release's defaults), the model's one
    architecture in the release's registry (multimodal, pooling) and its
    config.json (`is_encoder_decoder`, as written or as its Transformers
    config class defaults it: a generated table). Silent when the runner
    depends on files servelint does not read, with `--hf-overrides` or
    `--model-impl`.

    ## vLLM source
    `ModelConfig.__post_init__`, after it builds the `MultiModalConfig`.
    """

    code = "SL362"
    name = "renderer-workers-mm-cache"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_ANY, _POOLING)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--renderer-num-workers"
    partners = ("--mm-processor-cache-gb", "--runner", "--convert")
    requires = ("--renderer-num-workers",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if inv.knowledge.by_dest.get("renderer_num_workers") is None:
            return
        workers = value_of(inv, "renderer_num_workers")
        if not workers.known or not is_int(workers.value) or workers.value <= 1 or not workers.flags:
            return
        cache = value_of(inv, "mm_processor_cache_gb")
        if not cache.known or isinstance(cache.value, bool) or not isinstance(cache.value, (int, float)):
            return
        if cache.value <= 0:
            return
        arch = registry_arch(ctx)
        if arch is None or arch.supports_multimodal is not True:
            return
        if is_encoder_decoder(ctx) is not False:
            return
        if validators.has(_POOLING.key, ctx.version):
            if _pooling_runner(ctx, arch) is not True:
                return
            key = _POOLING.key
        elif validators.has(_ANY.key, ctx.version):
            key = _ANY.key
        else:
            return
        rel = related(ctx, cache.flags, "processor cache size set by {flag}")
        rel += [r for r in [model_note(ctx)] if r is not None]
        yield finding(ctx, workers.flags[-1], vllm_message(ctx, key), key, related_to=rel)
