"""Mamba prefix caching without chunked prefill.

``MambaModelConfig.verify_and_update_config``
(vllm/model_executor/models/config.py) runs for hybrid and attention-free
Mamba models; with prefix caching on it asserts that chunked prefill is on.
What prefix caching and the Mamba cache mode end up as is derived by
``vllm_state`` (the release's defaults for the model).
"""

from __future__ import annotations

from typing import Iterable

from ..diagnostics import Category, Severity
from ..knowledge.validators import VllmCheck
from . import top_facts as tf
from . import vllm_state as st
from .base import Context, Finding, Rule


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

    ## vLLM source
    `MambaModelConfig.verify_and_update_config`,
    vllm/model_executor/models/config.py: 0.25.0/0.26.0:581,
    0.27.x:636, 0.28.0:623, 0.29.0/0.30.0:643, 0.31.0:661 (mode 'align'
    only), 0.32.0:695, 0.33.0:773; prefix-caching default: see
    `vllm_state.prefix_caching`.
    """

    code = "SL323"
    vllm_checks = (VllmCheck("mamba_chunked", "Chunked prefill is required for ", "vllm/model_executor/models/config.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "mamba-prefix-caching-requires-chunked-prefill"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--enable-chunked-prefill"
    partners = ("--enable-prefix-caching",)
    reads = frozenset({"model", "hf_overrides", "enable_chunked_prefill", "enable_prefix_caching", "mamba_cache_mode"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        chunked = st.value_of(inv, "enable_chunked_prefill")
        if chunked.how != "flag" or chunked.value is not False:
            return
        if st.is_mamba_model(ctx) is not True:
            return
        pc = st.prefix_caching(ctx)
        if pc.value is not True:
            return
        notes = []
        if pc.how != "flag" and pc.why:
            notes.append(pc.why)
        if tf.at_least(ctx, "0.32.0"):
            if tf.at_least(ctx, "0.33.0"):
                message = "Chunked prefill is required for Mamba prefix caching."
            else:
                message = "Chunked prefill is required for mamba cache mode 'align'."
        else:
            mode = st.mamba_cache_mode(ctx)
            if mode.value != "align":
                return
            message = "Chunked prefill is required for mamba cache mode 'align'."
            if mode.why and mode.why not in notes:
                notes.append(mode.why)
        severity = None
        model = ctx.model
        if pc.how != "flag" and model is not None and model.inferred:
            severity = Severity.WARNING
            notes.append(f"architecture {model.architecture} inferred from {model.detail.removeprefix('inferred from ')}")
        rel = tf.related(ctx, pc.flags, "prefix caching turned on by {flag}")
        yield tf.finding(ctx, chunked.flags[-1], message, "mamba_chunked", note="; ".join(notes),
                         related_to=rel, severity=severity)
