"""SL327: CUDA graph capture sizes that contradict each other.

``VllmConfig._set_cudagraph_sizes`` (vllm/config/vllm.py) runs on platforms
with static graphs (``support_static_graph_mode``: CUDA, not the CPU the
vllm-oracle validates on), when CUDA graphs stay on.  It drops the capture
sizes above ``max_num_batched_tokens`` and stops when a written maximum
differs from the largest size left.  This rule was checked against vLLM's
source only: the oracle never reaches the check.
"""

from __future__ import annotations

from typing import Iterable

from ...derive.base import is_int
from ...derive.flags import last_flag, value_of, written
from ...derive.model import arch_facts
from ...derive.scheduler import batches
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, path_of, related, vllm_source

# Written settings under which servelint cannot be sure CUDA graphs stay on
# and the sizes reach the check unchanged: eager mode, optimization level and
# compilation config (cudagraph_mode, compilation mode, pass config), tensor
# parallelism (sequence parallelism re-rounds the sizes up to 0.31.0), DeepEP
# high-throughput with data parallelism and other all2all backends, KV
# connectors (may force PIECEWISE), speculative decoding, dual-batch overlap.
_UNSURE = (
    "compilation_config", "optimization_level", "all2all_backend", "kv_transfer_config",
    "speculative_config", "enable_dbo",
)


def _sizes(ctx: Context):
    """The written ``--cudagraph-capture-sizes`` as ints, or None."""
    flag = last_flag(ctx.invocation, "cudagraph_capture_sizes")
    if flag is None or not flag.values or not flag.exact or flag.missing_value:
        return None
    out = []
    for w in flag.values:
        try:
            out.append(int(w.text.strip()))
        except ValueError:
            return None
    return flag, out


class CudagraphMaxSizeVsCaptureSizes(Rule):
    """`--max-cudagraph-capture-size` that is not the largest capture size.

    ## What it does
    For target `cuda`, reports `--cudagraph-capture-sizes` and
    `--max-cudagraph-capture-size` written together when the maximum is not
    the largest capture size that fits the token budget (sizes above
    `max_num_batched_tokens` are dropped first). The token budget is the
    written `--max-num-batched-tokens`, else vLLM's default on every GPU
    class the target may be; the rule is silent when those disagree, and
    when CUDA graphs may be off or the sizes changed before the check:
    `--enforce-eager`, `-O`/`--optimization-level`, `--compilation-config`,
    tensor or data parallelism, `--all2all-backend`, KV connectors,
    speculative decoding, `--enable-dbo`, pooling, encoder-decoder and
    attention-free models, models with config hooks.

    ## Why
    vLLM stops while building its config: "customized
    max_cudagraph_capture_size(=512) should be consistent with the max value
    of cudagraph_capture_sizes(=256)". With only the maximum written, it is
    truncated with a warning instead.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --cudagraph-capture-sizes 1 2 4 8 16 256 --max-cudagraph-capture-size 512
    ```

    ## Fix
    Write only one of the two flags, or make the maximum the largest size
    (at most `--max-num-batched-tokens`).

    ## Evidence
    Both flags as written and the token budget (written, or the defaults on
    every device class of the declared target); the declared target must
    be `cuda` (the settings' target, not something the file says). Silent
    under every setting listed above that may turn CUDA graphs off or
    change the sizes before the check, and when the model's architecture is
    not known.

    ## vLLM source
    `VllmConfig._set_cudagraph_sizes` (the message), called only under
    `current_platform.support_static_graph_mode()` when neither eager mode
    nor `cudagraph_mode` NONE holds; the written flags reach the
    compilation config in `EngineArgs.create_engine_config`
    (vllm/engine/arg_utils.py). Verified from vLLM's source only: the
    vllm-oracle runs on vLLM's CPU platform, which has no static graphs, so
    its verdicts cannot show this check.
    """

    code = "SL327"
    vllm_checks = (VllmCheck("cudagraph", "should be consistent with the max value of", "vllm/config/vllm.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "cudagraph-max-size-vs-capture-sizes"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--max-cudagraph-capture-size"
    partners = ("--cudagraph-capture-sizes", "--max-num-batched-tokens")
    requires = ("--max-cudagraph-capture-size",)
    reads = frozenset({
        "cudagraph_capture_sizes", "max_cudagraph_capture_size", "max_num_batched_tokens", "max_num_seqs",
        "max_model_len", "enforce_eager", "tensor_parallel_size", "data_parallel_size", "enable_chunked_prefill",
        "performance_mode", "enable_expert_parallel", "runner", "convert", "model", "hf_overrides", *_UNSURE,
    })

    def check(self, ctx: Context) -> Iterable[Finding]:
        if ctx.target != "cuda":
            return
        inv = ctx.invocation
        mx = value_of(inv, "max_cudagraph_capture_size")
        if mx.how != "flag" or not is_int(mx.value):
            return
        got = _sizes(ctx)
        if got is None:
            return
        sizes_flag, sizes = got
        if any(written(inv, d) for d in _UNSURE):
            return
        eager = value_of(inv, "enforce_eager")
        if not eager.known or eager.value:
            return
        for dest in ("tensor_parallel_size", "data_parallel_size"):
            v = value_of(inv, dest)
            if not is_int(v.value) or v.value != 1:
                return
        arch = arch_facts(ctx)
        if arch is None or arch.models_config_map or arch.is_pooling_model or arch.is_attention_free:
            return
        if getattr(arch, "attn_type", None) == "encoder_decoder":
            return
        budgets = batches(ctx)
        if not budgets:
            return
        valid = set()
        for b in budgets:
            kept = sorted({s for s in sizes if s <= b.tokens})
            valid.add(kept[-1] if kept else 0)
        if mx.value in valid:
            return  # accepted on at least one GPU class
        flag = mx.flags[-1]
        rel = related(ctx, [sizes_flag], "capture sizes written by {flag}")
        tflags = written(inv, "max_num_batched_tokens")
        rel += related(ctx, tflags[-1:], "token budget set by {flag}")
        if len(valid) == 1:
            largest = valid.pop()
            vllm_message = (
                f"customized max_cudagraph_capture_size(={mx.value}) should be consistent with "
                f"the max value of cudagraph_capture_sizes(={largest})"
            )
            dropped = [s for s in sizes if s > budgets[0].tokens]
            why = (f" (sizes above max_num_batched_tokens={budgets[0].tokens} are dropped: "
                   f"{', '.join(map(str, sorted(set(dropped))))})" if dropped else "")
            text = (f"--max-cudagraph-capture-size {mx.value} is not the largest capture size, "
                    f"{largest}{why}: vLLM refuses the pair")
        else:
            vllm_message = None
            text = (f"--max-cudagraph-capture-size {mx.value} is not the largest capture size left under "
                    f"any GPU's default token budget ({', '.join(str(v) for v in sorted(valid))}): vLLM refuses the pair")
        yield Finding(
            flag.name_span, text, flag=flag.canonical, related=rel, vllm_message=vllm_message,
            path=path_of(ctx, flag),
            data={"vllm_source": vllm_source(ctx, "cudagraph")},
        )
