"""SL623: a full CUDA-graph mode written for a pooling model: vLLM uses piecewise graphs."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import defaults_unknown, json_of, value_of, written
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("vllm.pooling_no_full_cudagraph", "Pooling models do not support full cudagraphs. ",
                   "vllm/config/vllm.py")
_FULL_MODES = ("FULL", "FULL_DECODE_ONLY", "FULL_AND_PIECEWISE")


def _normalizes_to_full(version: str) -> bool:
    """Whether the release turns FULL_AND_PIECEWISE into FULL (not NONE)
    when the compilation mode is not VLLM_COMPILE
    (``VllmConfig._normalize_piecewise_cudagraph_mode``, 0.30.0+; up to
    0.29.0 ``__post_init__`` sets NONE, 0.25.0 vllm.py :1212-1222)."""
    from ...knowledge.versions import version_key

    return version_key(version) >= (0, 30, 0)


class PoolingNoFullCudagraph(Rule):
    """A full `cudagraph_mode` in `--compilation-config` for a pooling model.

    ## What it does
    Warns about a `--compilation-config` (`-cc`) whose `cudagraph_mode` has
    full CUDA graphs (`FULL`, `FULL_DECODE_ONLY`, `FULL_AND_PIECEWISE`)
    for a model vLLM runs with the pooling runner (an embedding, reward or
    classification architecture with `--runner` `auto` or `pooling`), on a
    CUDA GPU.

    ## Why
    Pooling models run without full CUDA graphs: vLLM logs "Pooling models
    do not support full cudagraphs. Overriding cudagraph_mode to
    PIECEWISE." and starts with piecewise graphs, so the mode written is
    not used.

    ## Example
    ```sh
    vllm serve BAAI/bge-base-en-v1.5 -cc.cudagraph_mode=FULL
    ```

    ## Fix
    Write `cudagraph_mode` `PIECEWISE` (what runs), or drop it.

    ## Evidence
    The `cudagraph_mode` as written (vLLM's default, `FULL_AND_PIECEWISE`
    at `-O2`, is overridden too, silently for the file: the rule reports
    only a mode the file writes), and the architecture from the model's
    config.json in the release's model registry: a pooling architecture
    that is not also a text generator, no `--convert`. Silent for other
    targets than `cuda` (the override runs only on platforms with static
    CUDA graphs), with `--enforce-eager` (SL663) or a speculative config,
    and, up to 0.29.0, for `FULL_AND_PIECEWISE` with a compilation mode or
    optimization level written (a mode other than VLLM_COMPILE turns it
    into `NONE` first).

    ## vLLM source
    `VllmConfig.__post_init__`, after `_set_max_num_scheduled_tokens` (a warning).
    """

    code = "SL623"
    name = "pooling-no-full-cudagraph"
    category = Category.CONFIG
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--compilation-config"
    requires = ("--compilation-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target != "cuda":
            return
        inv = ctx.invocation
        cc = json_of(inv, "compilation_config")
        if cc.how != "flag" or not cc.flags or not isinstance(cc.value, dict):
            return
        mode = cc.value.get("cudagraph_mode")
        if not isinstance(mode, str) or mode.strip().upper() not in _FULL_MODES:
            return
        mode = mode.strip().upper()
        eager = value_of(inv, "enforce_eager")
        if not eager.known or eager.value is not False or (eager.how == "default" and defaults_unknown(inv)):
            return
        if written(inv, "speculative_config"):
            return  # a dynamic speculative schedule overrides the mode first (SL609)
        if mode == "FULL_AND_PIECEWISE" and not _normalizes_to_full(ctx.version):
            if "mode" in cc.value or "backend" in cc.value or written(inv, "optimization_level"):
                return
            if inv.env.get("TORCH_COMPILE_DISABLE") is not None or inv.env.get("VLLM_USE_BREAKABLE_CUDAGRAPH") is not None:
                return
        runner = value_of(inv, "runner")
        if runner.value not in ("auto", "pooling") or runner.how not in ("flag", "default"):
            return
        if runner.how == "default" and defaults_unknown(inv):
            return
        if written(inv, "convert"):
            return
        arch = ctx.arch
        model = ctx.model
        if arch is None or model is None or getattr(model, "inferred", False) or getattr(arch, "error", None):
            return
        if not arch.is_pooling_model or arch.is_text_generation_model:
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        yield finding(ctx, cc.flags[-1], message, _CHECK.key,
                      note=f"{ctx.architecture} runs with the pooling runner; cudagraph_mode {mode} is not used")
