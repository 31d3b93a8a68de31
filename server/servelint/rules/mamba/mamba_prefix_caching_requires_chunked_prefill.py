"""SL323: Mamba prefix caching with chunked prefill turned off."""

from __future__ import annotations

from typing import Iterable

from ...derive.cache import mamba_cache_mode, prefix_caching
from ...derive.flags import value_of
from ...derive.model import is_mamba_model
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, inferred_architecture, related, release_has, vllm_message

_CONFIG_PY = "vllm/model_executor/models/config.py"
_CHUNKED = VllmCheck("mamba_chunked", "Chunked prefill is required for ", _CONFIG_PY)
# The condition the assertion sits under up to 0.31.0; from 0.32.0 it holds
# whenever prefix caching is on.
_ALIGN_ONLY = VllmCheck("mamba_chunked.align_only", 'if cache_config.mamba_cache_mode == "align":', _CONFIG_PY,
                        code=True)


class MambaPrefixCachingNeedsChunkedPrefill(Rule):
    """Mamba prefix caching with chunked prefill turned off.

    ## What it does
    Reports `--no-enable-chunked-prefill` on a hybrid (Nemotron-H, Jamba,
    Falcon-H1...) or Mamba model when prefix caching is on: written, or by
    default (on for hybrid models from 0.28.0; off for pure Mamba models).
    Up to 0.31.0 it applies only when the Mamba cache mode ends up `align`
    (with prefix caching on, models without Mamba 'all' support, and from
    0.28.0 every model unless `--mamba-cache-mode all` is kept); from
    0.32.0 whenever prefix caching is on.

    ## Why
    Mamba prefix caching stores states at chunk boundaries. vLLM asserts it
    while building its config: "Chunked prefill is required for Mamba
    prefix caching." (0.33.0; "... for mamba cache mode 'align'." before).

    ## Example
    ```sh
    vllm serve nvidia/Nemotron-H-8B-Base-8K --no-enable-chunked-prefill
    ```

    ## Fix
    Remove `--no-enable-chunked-prefill`, or also pass
    `--no-enable-prefix-caching`.

    ## Evidence
    `--no-enable-chunked-prefill` as written (a default never fails), the
    prefix-caching and Mamba-cache-mode flags, and the model's architecture
    (hybrid or attention-free, Mamba prefix caching support) in the
    release's generated registry. An architecture only inferred from the
    model's name makes it a warning that says so; none, silent.

    ## vLLM source
    `MambaModelConfig.verify_and_update_config`: the assertion, and up to
    0.31.0 the cache-mode condition it sits under. The prefix-caching default: see
    `servelint.derive.cache.prefix_caching`.
    """

    code = "SL323"
    vllm_checks = (_CHUNKED, _ALIGN_ONLY)
    reviewed = ("0.25.0", "0.33.0")
    name = "mamba-prefix-caching-requires-chunked-prefill"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--enable-chunked-prefill"
    partners = ("--enable-prefix-caching",)
    requires = ("--enable-chunked-prefill", "--enable-prefix-caching", "--hf-overrides", "--mamba-cache-mode")
    reads = frozenset({"model", "hf_overrides", "enable_chunked_prefill", "enable_prefix_caching", "mamba_cache_mode"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        chunked = value_of(inv, "enable_chunked_prefill")
        if chunked.how != "flag" or chunked.value is not False:
            return
        if is_mamba_model(ctx) is not True:
            return
        pc = prefix_caching(ctx)
        if pc.value is not True:
            return
        notes = []
        if pc.how != "flag" and pc.why:
            notes.append(pc.why)
        if release_has(ctx, _ALIGN_ONLY.key):
            mode = mamba_cache_mode(ctx)
            if mode.value != "align":
                return
            if mode.why and mode.why not in notes:
                notes.append(mode.why)
        message = vllm_message(ctx, _CHUNKED.key)
        if message is None:
            return
        severity = None
        inferred = inferred_architecture(ctx)
        if pc.how != "flag" and inferred:
            severity = Severity.WARNING
            notes.append(inferred)
        rel = related(ctx, pc.flags, "prefix caching turned on by {flag}")
        yield finding(ctx, chunked.flags[-1], message, _CHUNKED.key, note="; ".join(notes),
                      related_to=rel, severity=severity)
