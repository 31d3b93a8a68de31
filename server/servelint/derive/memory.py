"""How much GPU memory a launch needs: its weights and the KV cache of one
sequence, estimated from the checkpoint's config.json.

Two numbers vLLM prints when it starts: "Model loading took X GiB" (the
weights on one GPU, vllm/v1/worker/gpu_model_runner.py) and, when the KV
cache of one ``--max-model-len`` sequence does not fit, "... GiB KV cache
is needed, which is larger than the available KV cache memory (... GiB)"
(``_check_enough_kv_cache_memory``, vllm/v1/core/kv_cache_planning.py
0.33.0:49; vllm/v1/core/kv_cache_utils.py before).  Both are estimated
here as *lower bounds*: every term servelint is unsure of is left out
(biases, norms, a vision tower, quantization scales, layers a checkpoint
keeps unquantized, the activation and CUDA-graph memory vLLM also
reserves), so a check that finds them too large for the GPU is right
whenever the config.json is.

The estimate's error band, against published parameter counts and the
numbers vLLM prints (tests/derive/test_memory.py): parameters within 0.2%
of the model cards' counts for dense, MoE and MLA models (Llama-3.1-8B
8.030B, Llama-3.1-70B 70.55B for 70.6B, Qwen3-235B-A22B 235.1B,
DeepSeek-V3 671.0B without its multi-token-prediction layer), and below
the true count, which adds norms and biases; the weights of Llama-3.1-8B
in bfloat16 14.96 GiB for the 14.99 GiB vLLM reports loading (0.2%
below). KV cache per token is what vLLM's pages hold (Llama-3.1-8B
131,072 bytes, as its log's 19.28 GiB for 157,936 tokens; Qwen3-235B at
TP 4 1.1% below the figure its log implies), before vLLM rounds the
length up to whole blocks. vLLM also reserves activations, CUDA graphs
and what the driver takes (often 1-3 GiB per GPU): left out, so a
finding comes only where even the estimate does not fit.

Only model types whose layer shapes servelint knows are estimated
(``_DENSE``, ``_MOE``); others, sliding-window and hybrid models (their
KV cache is not one page per token per layer), and a config.json that
leaves a needed field out, answer None.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import FrozenValue, is_int
from .flags import value_of, written
from .model import arch_facts, model_config, text_config, uses_mla

if TYPE_CHECKING:  # pragma: no cover
    from .view import View

GIB = float(1 << 30)

# Decoder-only model types with gated MLPs (gate, up and down projections)
# and plain multi-head / grouped-query attention, in vLLM's model files
# (vllm/model_executor/models/<name>.py: ``MergedColumnParallelLinear``
# gate_up_proj, ``QKVParallelLinear``).
_DENSE = frozenset({
    "llama", "mistral", "qwen2", "qwen3", "gemma", "gemma2", "phi3", "granite", "olmo2", "internlm2",
    "cohere", "exaone", "yi", "aquila", "baichuan", "minicpm", "stablelm", "starcoder2_gated",
})
# MoE model types and how their experts are laid out (same sources).
_MOE = frozenset({"mixtral", "qwen2_moe", "qwen3_moe", "deepseek_v2", "deepseek_v3", "kimi_k2"})
# MLA layouts among them (``uses_mla``).
_MLA = frozenset({"deepseek_v2", "deepseek_v3", "kimi_k2"})

# Quantization methods and the bits of a quantized linear weight; None:
# read from the checkpoint's quantization_config (``bits``/``w_bit``).
_WEIGHT_BITS: dict[str, int | None] = {
    "fp8": 8, "fbgemm_fp8": 8, "fp8_per_tensor": 8, "fp8_per_block": 8, "fp8_per_channel": 8,
    "int8_per_channel_weight_only": 8, "experts_int8": 8, "modelopt": 8,
    "awq": None, "auto_awq": None, "awq_marlin": None, "gptq": None, "auto_gptq": None, "gptq_marlin": None,
    "mxfp4": 4, "gpt_oss_mxfp4": 4, "modelopt_fp4": 4,
}


class ParamCount(FrozenValue):
    """A model's parameters by kind: ``linear`` (the decoder layers'
    projections and experts, what quantization shrinks), ``embedding``
    (the token embeddings and, when not tied, the output head); ``layers``."""

    __slots__ = _fields = ("linear", "embedding", "layers")

    def __init__(self, linear: int, embedding: int, layers: int) -> None:
        s = object.__setattr__
        s(self, "linear", linear)
        s(self, "embedding", embedding)
        s(self, "layers", layers)

    @property
    def total(self) -> int:
        return self.linear + self.embedding


def _int(c: Any, *keys: str, default: Any = None) -> Any:
    for k in keys:
        v = c.get(k)
        if v is not None:
            return v if is_int(v) else None
    return default


def _model_type(ctx: "View") -> str | None:
    text = text_config(ctx)
    if text is None:
        return None
    mtype = text.get("model_type") or (model_config(ctx) or {}).get("model_type")
    return mtype if isinstance(mtype, str) else None


def _attention_params(text: Any, mtype: str, h: int) -> int | None:
    heads = _int(text, "num_attention_heads")
    if not heads:
        return None
    if mtype in _MLA:
        # DeepseekV2MLAAttention (models/deepseek_v2.py): q (through
        # q_lora_rank when set), kv_a (latent + rope key), kv_b, o.
        kv_lora, rope, nope, v = (_int(text, k) for k in ("kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim"))
        if not (kv_lora and rope and nope and v):
            return None
        q_lora = _int(text, "q_lora_rank")
        q = h * q_lora + q_lora * heads * (nope + rope) if q_lora else h * heads * (nope + rope)
        return q + h * (kv_lora + rope) + kv_lora * heads * (nope + v) + heads * v * h
    kv_heads = _int(text, "num_key_value_heads", default=heads)
    head_dim = _int(text, "head_dim") or h // heads
    if not kv_heads or not head_dim:
        return None
    return h * heads * head_dim + 2 * h * kv_heads * head_dim + heads * head_dim * h


def _moe_layer(text: Any, mtype: str, i: int) -> bool | None:
    """Whether decoder layer ``i`` holds experts (each model file's rule)."""
    if mtype == "mixtral":
        return True
    if mtype in ("qwen2_moe", "qwen3_moe"):
        step = _int(text, "decoder_sparse_step", default=1)
        only = text.get("mlp_only_layers") or []
        if not step or not isinstance(only, list):
            return None
        return i not in only and (i + 1) % step == 0
    first = _int(text, "first_k_dense_replace", default=0)
    freq = _int(text, "moe_layer_freq", default=1)
    if first is None or not freq:
        return None
    return i >= first and i % freq == 0


def _moe_params(text: Any, mtype: str, h: int) -> int | None:
    """One MoE block: the routed experts, the shared ones and the router."""
    experts = _int(text, "num_local_experts", "n_routed_experts", "num_experts")
    if not experts:
        return None
    if mtype == "mixtral":
        inter = _int(text, "intermediate_size")
        shared = 0
    else:
        inter = _int(text, "moe_intermediate_size")
        if mtype == "qwen2_moe":
            shared = 3 * h * (_int(text, "shared_expert_intermediate_size", default=0) or 0)
        elif mtype == "qwen3_moe":
            shared = 0
        else:
            shared = 3 * h * (inter or 0) * (_int(text, "n_shared_experts", default=0) or 0)
    if not inter:
        return None
    return experts * 3 * h * inter + shared + h * experts


def param_count(ctx: "View") -> ParamCount | None:
    """The model's parameters from its config.json (``text_config`` for a
    multimodal one), a lower bound; None for a model type servelint does
    not know the layers of.

    Per decoder layer: attention (q, k, v, o projections; MLA's low-rank
    ones) and a gated MLP (3 × hidden × intermediate) or, on MoE layers,
    every expert (3 × hidden × moe_intermediate each), the shared experts
    and the router; then the embeddings (vocab × hidden) and an output head
    of the same size unless ``tie_word_embeddings`` says it is tied (taken
    as tied when the file does not say: the smaller count).
    """
    text = text_config(ctx)
    mtype = _model_type(ctx)
    if text is None or mtype is None or mtype not in _DENSE | _MOE:
        return None
    h, layers, vocab = _int(text, "hidden_size"), _int(text, "num_hidden_layers"), _int(text, "vocab_size")
    if not (h and layers and vocab):
        return None
    attn = _attention_params(text, mtype, h)
    if attn is None:
        return None
    inter = _int(text, "intermediate_size")
    dense_mlp = 3 * h * inter if inter else None
    linear = 0
    moe = _moe_params(text, mtype, h) if mtype in _MOE else None
    for i in range(layers):
        if mtype in _MOE:
            is_moe = _moe_layer(text, mtype, i)
            if is_moe is None or (is_moe and moe is None) or (not is_moe and dense_mlp is None):
                return None
            linear += attn + (moe if is_moe else dense_mlp)
        else:
            if dense_mlp is None:
                return None
            linear += attn + dense_mlp
    tied = text.get("tie_word_embeddings", (model_config(ctx) or {}).get("tie_word_embeddings"))
    embedding = vocab * h * (1 if tied is not False else 2)
    return ParamCount(linear, embedding, layers)


class WeightBytes(FrozenValue):
    """Bytes per parameter: ``linear`` for the layers' projections, ``embedding``
    for the embeddings and head; ``label`` names them ("bfloat16", "fp8",
    "awq 4-bit")."""

    __slots__ = _fields = ("linear", "embedding", "label")

    def __init__(self, linear: float, embedding: float, label: str) -> None:
        s = object.__setattr__
        s(self, "linear", linear)
        s(self, "embedding", embedding)
        s(self, "label", label)


def weight_bytes(ctx: "View", dtype: str, method: str | None, quantized: bool | None) -> WeightBytes | None:
    """Bytes per parameter of the weights on the GPU, for the model dtype
    ``dtype`` and quantization ``method`` (``ModelConfig.quantization``;
    ``quantized``: whether the checkpoint carries a quantization config).
    Quantization keeps embeddings and the head in the model dtype."""
    from .platform import BYTES

    dtype_bytes = BYTES.get(dtype)
    if dtype_bytes is None:
        return None
    if method is None:
        if quantized:
            return None
        return WeightBytes(dtype_bytes, dtype_bytes, dtype)
    if method not in _WEIGHT_BITS:
        return None
    bits = _WEIGHT_BITS[method]
    if bits is None:
        cfg = model_config(ctx) or {}
        qc = cfg.get("quantization_config")
        if not hasattr(qc, "get"):
            return None
        bits = _int(qc, "bits", "w_bit")
        if not bits:
            return None
    label = method if "fp8" in method or "int8" in method or method == "modelopt" else f"{method} {bits}-bit"
    return WeightBytes(bits / 8, dtype_bytes, label)


class KvPerToken(FrozenValue):
    """The KV cache one token takes on one GPU: ``bytes``, and the terms
    (``layers`` × ``heads`` × ``head_size`` × ``factor`` × ``dtype_bytes``)
    to show; ``factor`` is 2 (K and V) for attention, 1 for MLA's latent."""

    __slots__ = _fields = ("bytes", "layers", "heads", "head_size", "factor", "dtype_bytes", "mla")

    def __init__(self, layers: int, heads: int, head_size: int, factor: int, dtype_bytes: int, mla: bool) -> None:
        s = object.__setattr__
        s(self, "bytes", layers * heads * head_size * factor * dtype_bytes)
        s(self, "layers", layers)
        s(self, "heads", heads)
        s(self, "head_size", head_size)
        s(self, "factor", factor)
        s(self, "dtype_bytes", dtype_bytes)
        s(self, "mla", mla)


# CacheDType values of one byte (config/cache.py).
_FP8_KV = frozenset({"fp8", "fp8_e4m3", "fp8_e5m2", "fp8_inc"})


def kv_dtype_bytes(ctx: "View", dtype: str) -> int | None:
    """Bytes of one KV cache element: ``--kv-cache-dtype auto`` keeps the
    model's dtype (``CacheConfig.cache_dtype``)."""
    from .platform import BYTES

    kv = value_of(ctx.invocation, "kv_cache_dtype")
    if not kv.known or not isinstance(kv.value, str):
        return None
    if kv.value == "auto":
        return BYTES.get(dtype)
    if kv.value in ("float16", "bfloat16"):
        return 2
    if kv.value in _FP8_KV:
        return 1
    return None


def _sliding(text: Any) -> bool | None:
    """Whether some layers attend through a sliding window (their KV cache
    is sized by the window, not the length): None when not sure."""
    types = text.get("layer_types")
    if types is not None:
        if not isinstance(types, list):
            return None
        return any(t != "full_attention" for t in types)
    window = text.get("sliding_window")
    if window is None:
        return False
    return text.get("use_sliding_window") is not False


def kv_per_token(ctx: "View", tp: int, pp: int, dtype: str) -> KvPerToken | None:
    """The KV cache of one token on one GPU (the rank with the most layers).

    Full attention (``FullAttentionSpec.page_size_bytes``,
    vllm/v1/kv_cache_interface.py 0.33.0:597): layers ×
    ``max(1, total_kv_heads // tp)`` (``ModelConfig.get_num_kv_heads``,
    config/model.py 0.33.0:1663: heads are replicated when TP exceeds
    them) × head size × 2 × dtype bytes.  MLA (``MLAAttentionSpec``): one
    latent of ``kv_lora_rank + qk_rope_head_dim`` per layer, the same on
    every TP rank (``get_head_size``, transformers_utils/
    model_arch_config_convertor.py 0.33.0:91).  Pipeline parallelism
    gives a rank at least ``ceil(layers / pp)`` layers.
    """
    text = text_config(ctx)
    mtype = _model_type(ctx)
    arch = arch_facts(ctx)
    if text is None or mtype is None or mtype not in _DENSE | _MOE or arch is None:
        return None
    if arch.is_hybrid or arch.is_attention_free or arch.is_pooling_model:
        return None
    if written(ctx.invocation, "hf_overrides"):
        return None
    sliding = _sliding(text)
    if sliding is None or (sliding and not _disabled_sliding(ctx)):
        return None
    layers = _int(text, "num_hidden_layers")
    if not layers:
        return None
    elem = kv_dtype_bytes(ctx, dtype)
    if elem is None:
        return None
    per_rank_layers = -(-layers // pp)
    mla = uses_mla(ctx)
    if mla is None:
        return None
    if mla:
        kv_lora, rope = _int(text, "kv_lora_rank"), _int(text, "qk_rope_head_dim")
        if not (kv_lora and rope):
            return None
        return KvPerToken(per_rank_layers, 1, kv_lora + rope, 1, elem, True)
    heads = _int(text, "num_attention_heads")
    if not heads:
        return None
    kv_heads = _int(text, "num_key_value_heads", default=heads)
    head_size = _int(text, "head_dim") or (_int(text, "hidden_size") or 0) // heads
    if not kv_heads or not head_size:
        return None
    return KvPerToken(per_rank_layers, max(1, kv_heads // tp), head_size, 2, elem, False)


def _disabled_sliding(ctx: "View") -> bool:
    d = value_of(ctx.invocation, "disable_sliding_window")
    return bool(d.known and d.value)
