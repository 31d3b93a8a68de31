"""``SchedulerConfig``: chunked prefill and the batch sizes vLLM derives."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import UNKNOWN, Derived, is_int
from .flags import value_of, written
from .model import arch_facts, max_model_len, model_config
from .parallel import use_batched_dp_moe

if TYPE_CHECKING:  # pragma: no cover
    from .view import View

def chunked_prefill(ctx: "View") -> Derived:
    """``SchedulerConfig.enable_chunked_prefill``.

    A written ``--(no-)enable-chunked-prefill`` wins, except that
    encoder-decoder models always have it off (SchedulerConfig
    ``__post_init__``, config/scheduler.py 0.33.0 :296).  Unwritten, it is
    ``ModelConfig.is_chunked_prefill_supported`` (engine/arg_utils.py
    ``_set_default_chunked_prefill_and_prefix_caching_args``, 0.33.0 :3040):
    on for generative models other than encoder-decoder ones; pooling
    models depend on their pooler, left unknown.
    """
    inv = ctx.invocation
    arch = arch_facts(ctx)
    cfg = model_config(ctx)
    enc_dec = None
    if arch is not None:
        enc_dec = getattr(arch, "attn_type", None) == "encoder_decoder" or bool(cfg and cfg.get("is_encoder_decoder") is True)
    if enc_dec:
        return Derived(False, "default", "encoder-decoder models run without chunked prefill")
    v = value_of(inv, "enable_chunked_prefill")
    if v.how == "flag":
        return Derived(bool(v.value), "flag", "", v.flags)
    if v.how == "unknown" and written(inv, "enable_chunked_prefill"):
        return UNKNOWN
    if v.value is not None:
        return Derived(bool(v.value), "default")
    if arch is None or arch.is_pooling_model or not arch.is_text_generation_model:
        return UNKNOWN
    if written(inv, "runner") or written(inv, "convert"):
        return UNKNOWN
    return Derived(True, "default", "chunked prefill is on by default for this model")


def _gpu_classes(ctx: "View") -> list[tuple[str, int, int]] | None:
    """``get_batch_defaults`` for ``vllm serve`` (OPENAI_API_SERVER):
    (name, max_num_batched_tokens, max_num_seqs) per device class the
    declared target may be (engine/arg_utils.py, 0.25.0 :2426, 0.28.0
    :2582, 0.33.0 :2970).  CUDA and ROCm pick by device memory: below
    70 GiB (and A100s, GB10) 2048/256, from 70 GiB 8192/1024, from 160 GiB
    (0.28.0+) 16384/1024.  CPU: 2048 and 128 per rank of TP x PP.
    """
    if ctx.target == "cpu":
        tp = value_of(ctx.invocation, "tensor_parallel_size")
        pp = value_of(ctx.invocation, "pipeline_parallel_size")
        if not (is_int(tp.value) and is_int(pp.value)):
            return None
        ws = tp.value * pp.value
        return [("CPU", 2048 * ws, 128 * ws)]
    if ctx.target not in ("cuda", "rocm"):
        return None
    out = [("a GPU below 70 GiB", 2048, 256), ("a GPU of 70 GiB or more", 8192, 1024)]
    if ctx.at_least("0.28.0"):
        out.append(("a GPU of 160 GiB or more", 16384, 1024))
    return out


class Batch:
    """``max_num_batched_tokens`` and ``max_num_seqs`` after
    ``_set_default_max_num_seqs_and_batched_tokens_args`` on one device class."""

    __slots__ = ("device", "tokens", "seqs", "tokens_written", "seqs_written")

    def __init__(self, device: str, tokens: int, seqs: int, tokens_written: bool, seqs_written: bool) -> None:
        self.device = device
        self.tokens = tokens
        self.seqs = seqs
        self.tokens_written = tokens_written
        self.seqs_written = seqs_written


def batches(ctx: "View") -> list[Batch] | None:
    """The scheduler sizes on every device class the target may be, or None.

    ``_set_default_max_num_seqs_and_batched_tokens_args`` (engine/arg_utils.py
    0.25.0 :2590, 0.28.0 :2757, 0.33.0 :3151, the same steps throughout):
    unwritten values take the class default, doubled by
    ``--performance-mode throughput``; an unwritten token budget is raised to
    ``max_model_len`` when chunked prefill is off and capped at
    ``max_num_seqs * max_model_len``; an unwritten ``max_num_seqs`` is capped
    at the token budget.  Unknown: batched-DP MoE launches (their own
    256-token default), prefix-LM multimodal models (raised to fit an item).
    """
    inv = ctx.invocation
    tokens = value_of(inv, "max_num_batched_tokens")
    seqs = value_of(inv, "max_num_seqs")
    if tokens.how == "unknown" and written(inv, "max_num_batched_tokens"):
        return None
    if seqs.how == "unknown" and written(inv, "max_num_seqs"):
        return None
    t_written = tokens.how == "flag" and tokens.value is not None
    s_written = seqs.how == "flag" and seqs.value is not None
    if t_written and not is_int(tokens.value) or s_written and not is_int(seqs.value):
        return None
    if t_written and s_written:
        return [Batch("any device", tokens.value, seqs.value, True, True)]
    classes = _gpu_classes(ctx)
    if classes is None:
        return None
    if not t_written:
        if use_batched_dp_moe(inv):
            return None
        arch = arch_facts(ctx)
        if arch is None or arch.supports_multimodal:
            return None
    mode = value_of(inv, "performance_mode")
    if mode.how == "unknown" and written(inv, "performance_mode"):
        return None
    throughput = mode.value == "throughput"
    out = []
    mml = None
    chunked = None
    for device, dt, ds in classes:
        t = tokens.value if t_written else dt * (2 if throughput else 1)
        s = seqs.value if s_written else ds * (2 if throughput else 1)
        if not t_written:
            if chunked is None:
                chunked = chunked_prefill(ctx)
            if not chunked.known:
                return None
            if mml is None:
                mml = max_model_len(ctx)
            if not chunked.value:
                if mml is None:
                    return None
                t = max(mml.value, t)
            if mml is not None:
                t = min(s * mml.value, t)
            elif t > 64 * s:
                return None  # the cap could bite on a very short model
        if not s_written:
            s = min(s, t)
        out.append(Batch(device, t, s, t_written, s_written))
    return out
