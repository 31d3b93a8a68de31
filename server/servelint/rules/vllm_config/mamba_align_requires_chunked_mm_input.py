"""SL665: ``--disable-chunked-mm-input`` with the Mamba cache in align mode."""

from __future__ import annotations

from typing import Iterable

from ...derive.cache import mamba_cache_mode
from ...diagnostics import Category, Severity
from ...derive.flags import value_of
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, related, release_has, vllm_message

_PATH = "vllm/config/vllm.py"
_CHECK = VllmCheck("vllm.mamba_align_chunked_mm_input", "Chunked MM input is required because we need the flexibility",
                   _PATH)
# 0.25.0 and 0.26.0 assert on the block size and the long-prefill threshold
# first (block sizes servelint does not derive): silent there.
_BLOCK_SIZE_FIRST = VllmCheck("vllm.mamba_align_block_size", "In Mamba cache align mode, block_size", _PATH, code=True)


class MambaAlignRequiresChunkedMmInput(Rule):
    """`--disable-chunked-mm-input` on a Mamba/hybrid model whose cache runs in align mode.

    ## What it does
    Reports `--disable-chunked-mm-input` on a hybrid or Mamba model with
    prefix caching on, which puts the Mamba cache in `align` mode.

    ## Why
    Align mode schedules multiples of the block size, which may end in the
    middle of a multimodal item. vLLM asserts when the engine starts,
    once the block size is final: "Chunked MM input is required because
    we need the flexibility to schedule a multiple of block_size tokens
    even if they are in the middle of a mm input".

    ## Example
    ```sh
    vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --enable-prefix-caching --disable-chunked-mm-input
    ```

    ## Fix
    Remove `--disable-chunked-mm-input`, or turn prefix caching off
    (`--no-enable-prefix-caching`).

    ## Evidence
    The flag as written and the Mamba cache mode as
    `derive.cache.mamba_cache_mode` resolves it (the model's
    architecture, prefix caching); silent when either is not known.

    ## vLLM source
    `VllmConfig.validate_block_size`, called by `EngineCore` after the
    platform settles the block size (vllm/v1/engine/core.py). Verified
    from vLLM's source only: the vllm-oracle builds the config and never
    starts an engine core.
    """

    code = "SL665"
    name = "mamba-align-requires-chunked-mm-input"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK, _BLOCK_SIZE_FIRST)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--disable-chunked-mm-input"
    partners = ("--enable-prefix-caching",)
    requires = ("--disable-chunked-mm-input",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if release_has(ctx, _BLOCK_SIZE_FIRST.key):
            return
        off = value_of(ctx.invocation, "disable_chunked_mm_input")
        if off.how != "flag" or off.value is not True or not off.flags:
            return
        mode = mamba_cache_mode(ctx)
        if mode.value != "align":
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        rel = related(ctx, [f for f in mode.flags if f is not off.flags[-1]], "the Mamba cache aligns because of {flag}")
        yield finding(ctx, off.flags[-1], message, _CHECK.key, related_to=rel,
                      note=mode.why or "prefix caching puts the Mamba cache in align mode")
