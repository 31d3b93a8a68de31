"""Facts the top-25 rule families share: the model's config.json fields and
the scheduler values vLLM derives, each the way one release computes them.

Every function answers None when servelint cannot be sure (no config.json,
a field a Transformers or vLLM config class might fill in, a value that
depends on the GPU), and the rules then stay silent.  Line numbers are of
each release's unpacked wheel, ``vllm/...``.

The config.json is read as written.  vLLM reads it through Transformers
(5.x for the releases here), whose config classes can add defaults for
fields the file leaves out; where such a default would change an answer
(expert counts), the model types that have one are listed below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from ..diagnostics import Applicability, Related
from . import vllm_state as st
from .base import version_key

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Flag
    from .base import Context

# Sub-config keys Transformers' ``get_text_config`` may pick instead of the
# top level; only "text_config" is followed here, the others make the text
# config unknown (vllm/transformers_utils/config.py ``get_hf_text_config``).
_OTHER_TEXT_CONFIG_KEYS = ("decoder", "generator", "text_encoder", "language_config", "llm_config", "thinker_config")

# Model types whose ModelArchConfigConvertor reads the head count elsewhere
# (transformers_utils/model_arch_config_convertor.py, the same two in
# 0.25.0-0.33.0: CohereAsr..., MossAudio...).
_HEADS_ELSEWHERE = frozenset({"cohere_asr", "moss_audio"})

# CONFIG_FIELD_ALIASES["num_experts"] (transformers_utils/config.py, 0.33.0
# :64; the same four names since 0.25.0).
EXPERT_KEYS = ("num_experts", "moe_num_experts", "n_routed_experts", "num_local_experts")

# Model types whose config class has a non-zero expert count by default, so a
# config.json without the key is still MoE: every Transformers 5.20.2
# ``CONFIG_MAPPING`` type and every vLLM 0.33.0 ``_CONFIG_REGISTRY`` type whose
# default instance has one of EXPERT_KEYS (computed by instantiating them).
MOE_BY_DEFAULT = frozenset(
    """
    afmoe aria aria_text axk1 axk2 bailing_hybrid bailing_moe_v3_vl beam cohere2_moe deepseek_ocr2
    deepseek_ocr2_text deepseek_v2 deepseek_v3 deepseek_v32 deepseek_v4 deepseek_vl_v2 doge dots3_note
    ernie4_5_moe ernie4_5_vl_moe ernie4_5_vl_moe_text exaone_moe flex_olmo flint glm4_moe glm4_moe_lite
    glm4v_moe glm4v_moe_text glm5_next glm5_next_text glm_moe_dsa gpt_oss granitemoe granitemoe_swa
    granitemoehybrid granitemoeshared hunyuan_v1_moe hy_v3 hy_v4 inkling_mm_model inkling_text jamba
    jetmoe kimi_k2 kimi_k25 kimi_linear kimi_vl kolibri1 laguna lfm2_moe llama4 llama4_text longcat_flash
    mellum mimo_v2_flash minimax minimax_m2 minimax_m3_mtp minimax_m3_vl minimax_m3_vl_text mistral4
    mixtral moondream3 muse_spark muse_spark_dspark muse_spark_text musespark1x_text nemotron_h
    nemotron_h_omni nllb-moe olmoe openai_privacy_filter phimoe qwen2_moe qwen3_5_moe qwen3_5_moe_text
    qwen3_moe qwen3_next qwen3_omni_moe qwen3_omni_moe_talker_text qwen3_omni_moe_text
    qwen3_omni_moe_thinker qwen3_vl_moe qwen3_vl_moe_text qwen4_exp qwen4_exp_text solar_open step3_text
    step3_vl step3p5 step3p7 step5 step5_vl switch_transformers unlimited-ocr unlimited_ocr
    """.split()
)

# ``possible_keys`` of ``derive_max_model_len_and_key``
# (model_arch_config_convertor.py, 0.33.0 :374; the same list since 0.25.0).
MAX_LEN_KEYS = (
    "max_position_embeddings", "n_positions", "max_seq_len", "seq_length", "model_max_length",
    "max_target_positions", "max_sequence_length", "max_seq_length", "seq_len",
)

# Model types whose convertor derives the length another way (MossAudio).
_MAX_LEN_ELSEWHERE = frozenset({"moss_audio"})

# RoPE types whose ``factor`` is not applied to the derived length
# (_get_and_verify_max_len): 0.25.0-0.29.0 ("su", "longrope", "llama3"), and
# "yarn" replaces the length with original_max_position_embeddings first;
# 0.30.0+ also leaves yarn, deepseek_yarn and deepseek_llama_scaling alone.
_ROPE_NO_FACTOR_OLD = ("su", "longrope", "llama3")
_ROPE_NO_FACTOR_NEW = ("su", "longrope", "llama3", "yarn", "deepseek_yarn", "deepseek_llama_scaling")
# RoPE types whose Transformers normalisation is plain (rope_type and factor
# carried over); others make the derived length unknown.
_ROPE_KNOWN = frozenset({"default", "linear", "dynamic", "yarn", "llama3", "longrope", "su"})


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def at_least(ctx: "Context", version: str) -> bool:
    return version_key(ctx.version) >= version_key(version)


# ---------------------------------------------------------------------------
# Locations
# ---------------------------------------------------------------------------


def path_of(ctx: "Context", flag: "Flag") -> str:
    """The file a flag is written in (the --config file for its keys)."""
    return (flag.word.path if flag.word is not None else None) or ctx.path


def related(ctx: "Context", flags: Iterable["Flag"], message: str) -> list[Related]:
    return [Related(path_of(ctx, f), f.name_span, message.format(flag=f.written)) for f in flags]


def model_note(ctx: "Context") -> Related | None:
    """A note on the model word: the facts come from its config.json."""
    inv = ctx.invocation
    model = ctx.model
    if inv.model is None or model is None or model.config is None:
        return None
    path = inv.model.path or ctx.path
    arch = f" ({model.architecture})" if model.architecture else ""
    return Related(path, inv.model.span, f"facts from this model's config.json{arch}")


# ---------------------------------------------------------------------------
# The model's config.json
# ---------------------------------------------------------------------------


def model_config(ctx: "Context") -> dict | None:
    """The config.json vLLM reads, or None.

    None when no config.json was found, when the architecture is only
    inferred, and when ``--hf-overrides`` is written (it may replace any
    field; servelint does not apply it).
    """
    model = ctx.model
    if model is None or model.config is None or model.inferred:
        return None
    if st.written(ctx.invocation, "hf_overrides"):
        return None
    cfg = model.config
    return cfg if isinstance(cfg, dict) or hasattr(cfg, "get") else None


def text_config(ctx: "Context") -> dict | None:
    """``hf_text_config``: ``text_config`` when present, else the top level."""
    cfg = model_config(ctx)
    if cfg is None:
        return None
    if any(isinstance(cfg.get(k), dict) for k in _OTHER_TEXT_CONFIG_KEYS):
        return None
    text = cfg.get("text_config")
    if text is None:
        return cfg
    return text if isinstance(text, dict) or hasattr(text, "get") else None


def _model_types(ctx: "Context") -> set[str]:
    cfg = model_config(ctx) or {}
    text = text_config(ctx) or {}
    return {t for t in (cfg.get("model_type"), text.get("model_type")) if isinstance(t, str)}


def heterogeneous(ctx: "Context") -> bool:
    cfg = model_config(ctx) or {}
    text = text_config(ctx) or {}
    return any(c.get("is_heterogeneous") or c.get("per_layer_config") for c in (cfg, text))


def num_attention_heads(ctx: "Context") -> int | None:
    """``model_arch_config.total_num_attention_heads``: the text config's
    ``num_attention_heads`` (model_arch_config_convertor.py
    ``get_total_num_attention_heads``, 0.33.0 :82)."""
    text = text_config(ctx)
    if text is None or heterogeneous(ctx) or _model_types(ctx) & _HEADS_ELSEWHERE:
        return None
    heads = text.get("num_attention_heads")
    return heads if is_int(heads) and heads > 0 else None


def is_moe(ctx: "Context") -> bool | None:
    """``ModelConfig.is_moe``: ``get_num_experts() > 0``
    (model_arch_config_convertor.py ``get_num_experts``, 0.33.0 :179; the
    expert keys, a list's first item, else the largest ``n_routed_experts``
    of the ``moe`` blocks in ``block_configs``).

    False only when the config.json has no expert count, the model type has
    no default one (MOE_BY_DEFAULT) and the architecture's class does not
    implement ``MixtureOfExperts``.
    """
    text = text_config(ctx)
    if text is None or heterogeneous(ctx):
        return None
    for key in EXPERT_KEYS:
        if key not in text:
            continue
        value = text.get(key)
        if isinstance(value, list):
            value = value[0] if value else 0
        if value is None:
            continue
        if not is_int(value):
            return None
        if value > 0:
            return True
        break  # getattr_iter stops at the first key present
    blocks = text.get("block_configs")
    if blocks:
        if not isinstance(blocks, list):
            return None
        for b in blocks:
            if isinstance(b, dict) and b.get("block_type") == "moe" and (b.get("n_routed_experts") or 0) > 0:
                return True
    if _model_types(ctx) & MOE_BY_DEFAULT:
        return None
    arch = st.arch_facts(ctx)
    if arch is None or "MixtureOfExperts" in (arch.interfaces or ()):
        return None
    return False


# ---------------------------------------------------------------------------
# max_model_len
# ---------------------------------------------------------------------------


class DerivedLen:
    """The length ``_get_and_verify_max_len`` compares a written
    ``--max-model-len`` with, as vLLM formats it in its message."""

    __slots__ = ("value", "key", "model_max_length")

    def __init__(self, value: float | int, key: str | None, model_max_length: Any) -> None:
        self.value = value
        self.key = key
        self.model_max_length = model_max_length


def _rope_parameters(text: dict) -> list[dict] | None:
    """The RoPE parameter dicts Transformers 5 makes of the config: one per
    layer type when nested; None when servelint cannot tell."""
    raw = text.get("rope_parameters")
    if raw is None:
        raw = text.get("rope_scaling")
    if raw is None:
        return []
    if not isinstance(raw, dict):
        return None
    if raw and all(isinstance(v, dict) for v in raw.values()):
        items = [v for v in raw.values() if v]
    else:
        items = [raw] if raw else []
    out = []
    for rp in items:
        rtype = rp.get("rope_type", rp.get("type"))
        if rtype not in _ROPE_KNOWN:
            return None
        out.append({**rp, "rope_type": rtype})
    return out


def derived_max_len(ctx: "Context") -> DerivedLen | None:
    """The derived maximum length, or None when it is not certain.

    ``derive_max_model_len_and_key`` takes the smallest of MAX_LEN_KEYS in
    the text config, ``model_max_length`` winning when present; the value is
    a float (``ModelArchitectureConfig.derived_max_model_len_and_key`` is
    ``tuple[float, ...]``, model_arch.py :62), which is why vLLM prints
    "131072.0".  ``--disable-sliding-window`` caps it at ``sliding_window``
    (kept an int); then RoPE ``factor`` multiplies it except for the types
    in _ROPE_NO_FACTOR_* and for model types containing "gemma3"; up to
    0.29.0 a "yarn" entry first resets it to its
    ``original_max_position_embeddings``.

    Unknown: no length key at all (vLLM then accepts any written length),
    a pooling model (the tokenizer's limit may lower it), a
    sentence-transformers directory (its ``max_seq_length`` replaces it),
    a RoPE type servelint does not know.
    """
    text = text_config(ctx)
    if text is None or heterogeneous(ctx) or _model_types(ctx) & _MAX_LEN_ELSEWHERE:
        return None
    arch = st.arch_facts(ctx)
    if arch is None or arch.is_pooling_model:
        return None
    if st.written(ctx.invocation, "runner") or st.written(ctx.invocation, "convert"):
        return None
    model = ctx.model
    if model is not None and model.path:
        import os

        if os.path.exists(os.path.join(os.path.dirname(model.path), "sentence_bert_config.json")):
            return None
    value: float | int | None = None
    key = None
    for k in MAX_LEN_KEYS:
        v = text.get(k)
        if v is None:
            continue
        if not is_int(v) and not isinstance(v, float):
            return None
        if value is None or v < value:
            key = k
            value = v if value is None else min(value, v)
    mml = text.get("model_max_length")
    if mml:
        key, value = "model_max_length", mml
    if value is None:
        return None
    derived: float | int = float(value)
    disable_sw = st.value_of(ctx.invocation, "disable_sliding_window")
    if not disable_sw.known:
        return None
    if disable_sw.value:
        sw = text.get("sliding_window")
        if sw is not None and text.get("use_sliding_window") is False:
            return None  # the config class may drop it
        if is_int(sw) and sw < derived:
            key, derived = "sliding_window", sw
        elif sw is not None and not is_int(sw):
            return None
    rope = _rope_parameters(text)
    if rope is None:
        return None
    mtype = (model_config(ctx) or {}).get("model_type") or ""
    if "gemma3" not in str(text.get("model_type") or mtype):
        old = not at_least(ctx, "0.30.0")
        skip = _ROPE_NO_FACTOR_OLD if old else _ROPE_NO_FACTOR_NEW
        factor: Any = 1.0
        for rp in rope:
            if rp["rope_type"] in skip:
                continue
            factor = rp.get("factor", factor)
            if old and rp["rope_type"] == "yarn":
                orig = rp.get("original_max_position_embeddings")
                if not is_int(orig) and not isinstance(orig, float):
                    return None
                derived = orig
        if factor is None:
            factor = 1.0
        if not is_int(factor) and not isinstance(factor, float):
            return None
        derived = derived * factor
    return DerivedLen(derived, key, text.get("model_max_length"))


class MaxLen:
    __slots__ = ("value", "how", "flags")

    def __init__(self, value: int, how: str, flags: tuple = ()) -> None:
        self.value = value
        self.how = how  # "flag" or "derived"
        self.flags = flags


def max_model_len(ctx: "Context") -> MaxLen | None:
    """``ModelConfig.max_model_len``: a written positive ``--max-model-len``
    (vLLM stops if it exceeds the derived length, see SL302), else the
    derived length as an int (LongRoPE models: their
    ``original_max_position_embeddings``)."""
    inv = ctx.invocation
    v = st.value_of(inv, "max_model_len")
    if v.how == "flag":
        if is_int(v.value) and v.value > 0:
            return MaxLen(v.value, "flag", v.flags)
        if v.value not in (-1, None):
            return None
    elif v.how == "unknown" and st.written(inv, "max_model_len"):
        return None
    d = derived_max_len(ctx)
    if d is None:
        return None
    text = text_config(ctx) or {}
    rope = _rope_parameters(text) or []
    if any(rp["rope_type"] == "longrope" for rp in rope):
        orig = text.get("original_max_position_embeddings")
        if orig is not None:
            return MaxLen(int(orig), "derived") if is_int(orig) else None
    return MaxLen(int(d.value), "derived")


# ---------------------------------------------------------------------------
# Scheduler defaults
# ---------------------------------------------------------------------------


def chunked_prefill(ctx: "Context") -> st.Derived:
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
    arch = st.arch_facts(ctx)
    cfg = model_config(ctx)
    enc_dec = None
    if arch is not None:
        enc_dec = getattr(arch, "attn_type", None) == "encoder_decoder" or bool(cfg and cfg.get("is_encoder_decoder") is True)
    if enc_dec:
        return st.Derived(False, "default", "encoder-decoder models run without chunked prefill")
    v = st.value_of(inv, "enable_chunked_prefill")
    if v.how == "flag":
        return st.Derived(bool(v.value), "flag", "", v.flags)
    if v.how == "unknown" and st.written(inv, "enable_chunked_prefill"):
        return st.UNKNOWN
    if v.value is not None:
        return st.Derived(bool(v.value), "default")
    if arch is None or arch.is_pooling_model or not arch.is_text_generation_model:
        return st.UNKNOWN
    if st.written(inv, "runner") or st.written(inv, "convert"):
        return st.UNKNOWN
    return st.Derived(True, "default", "chunked prefill is on by default for this model")


def _gpu_classes(ctx: "Context") -> list[tuple[str, int, int]] | None:
    """``get_batch_defaults`` for ``vllm serve`` (OPENAI_API_SERVER):
    (name, max_num_batched_tokens, max_num_seqs) per device class the
    declared target may be (engine/arg_utils.py, 0.25.0 :2426, 0.28.0
    :2582, 0.33.0 :2970).  CUDA and ROCm pick by device memory: below
    70 GiB (and A100s, GB10) 2048/256, from 70 GiB 8192/1024, from 160 GiB
    (0.28.0+) 16384/1024.  CPU: 2048 and 128 per rank of TP x PP.
    """
    if ctx.target == "cpu":
        tp = st.value_of(ctx.invocation, "tensor_parallel_size")
        pp = st.value_of(ctx.invocation, "pipeline_parallel_size")
        if not (is_int(tp.value) and is_int(pp.value)):
            return None
        ws = tp.value * pp.value
        return [("CPU", 2048 * ws, 128 * ws)]
    if ctx.target not in ("cuda", "rocm"):
        return None
    out = [("a GPU below 70 GiB", 2048, 256), ("a GPU of 70 GiB or more", 8192, 1024)]
    if at_least(ctx, "0.28.0"):
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


def batches(ctx: "Context") -> list[Batch] | None:
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
    tokens = st.value_of(inv, "max_num_batched_tokens")
    seqs = st.value_of(inv, "max_num_seqs")
    if tokens.how == "unknown" and st.written(inv, "max_num_batched_tokens"):
        return None
    if seqs.how == "unknown" and st.written(inv, "max_num_seqs"):
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
        if _maybe_batched_dp_moe(inv):
            return None
        arch = st.arch_facts(ctx)
        if arch is None or arch.supports_multimodal:
            return None
    mode = st.value_of(inv, "performance_mode")
    if mode.how == "unknown" and st.written(inv, "performance_mode"):
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


def _maybe_batched_dp_moe(inv) -> bool:
    """``ParallelConfig.use_batched_dp_moe`` (config/parallel.py 0.25.0 :659,
    0.33.0 :796): deepep_low_latency or nixl_ep with expert parallelism and
    data parallelism; True also when one of those is not known."""
    backend = st.value_of(inv, "all2all_backend")
    ep = st.value_of(inv, "enable_expert_parallel")
    dp = st.value_of(inv, "data_parallel_size")
    if backend.known and backend.value not in ("deepep_low_latency", "nixl_ep"):
        return False
    if ep.known and not ep.value:
        return False
    if is_int(dp.value) and dp.value <= 1:
        return False
    return True


# ---------------------------------------------------------------------------
# Where each message is raised (the line of its text), per release
# ---------------------------------------------------------------------------

_R = ("0.25.0", "0.26.0", "0.27.0", "0.27.1", "0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0")


def _lines(path: str, *lines: int | None) -> dict[str, str]:
    return {v: f"{path}:{n}" for v, n in zip(_R, lines) if n is not None}


SOURCE: dict[str, dict[str, str]] = {
    "heads": _lines("vllm/config/model.py", 1215, 1233, 1318, 1318, 1370, 1416, 1429, 1507, 1549, 1562),
    "max_len": _lines("vllm/config/model.py", 2261, 2270, 2364, 2364, 2446, 2502, 2525, 2603, 2647, 2665),
    "tokens_lt_len": _lines("vllm/config/scheduler.py", 279, 279, 256, 256, 256, 291, 302, 322, 321, 324),
    "tokens_lt_seqs": _lines("vllm/config/scheduler.py", 289, 289, 266, 266, 266, 301, 312, 332, 331, 334),
    "pp": _lines("vllm/config/model.py", 1227, 1245, 1330, 1330, 1382, 1428, 1441, 1519, 1561, 1574),
    "ep": _lines("vllm/config/model.py", 1163, 1181, 1266, 1266, 1318, 1364, 1377, 1455, 1489, 1502),
    "eplb": _lines("vllm/config/parallel.py", 482, 481, 500, 500, 500, 521, 534, 540, 566, 570),
    "external_dp": _lines("vllm/engine/arg_utils.py", 1984, 2014, 2090, 2090, 2129, 2225, 2235, 2356, 2421, 2462),
    "quantization": _lines("vllm/config/model.py", 1100, 1118, 1203, 1203, 1283, 1329, 1342, 1420, 1454, 1467),
    "fp16": _lines("vllm/config/model.py", 2021, 2030, 2124, 2124, 2206, 2262, 2271, 2349, 2399, 2417),
    "kv_float": _lines("vllm/config/vllm.py", *([None] * 9), 1506),
    "kv_unknown": _lines("vllm/config/cache.py", *([None] * 9), 473),
    "spec_no_model": _lines("vllm/config/speculative.py", 697, 731, 742, 742, 797, 1138, 1169, 1183, 1189, 1294),
    "spec_tokens": _lines("vllm/config/speculative.py", 1142, 1228, 1293, 1293, 1356, 1722, 1788, 1817, 1823, 1950),
    "draft_tp": _lines("vllm/config/speculative.py", 1078, 1164, 1229, 1229, 1292, 1658, 1723, 1735, 1741, 1868),
    "draft_vocab": _lines("vllm/config/speculative.py", 1199, 1285, 1350, 1350, 1413, 1779, 1845, 1874, 1880, 2050),
    "lora_spec": _lines("vllm/engine/arg_utils.py", 2209, 2241, 2328, 2328, 2369, 2485, 2489, 2615, 2682, 2723),
    "lora_arch": _lines("vllm/config/lora.py", *([None] * 9), 153),
    "whitespace": _lines("vllm/config/structured_outputs.py", 66, 66, 66, 66, 66, 66, 66, 65, 64, 69),
    "tool_parser": {
        **_lines("vllm/entrypoints/openai/cli_args.py", 396, 396, 415, 415, 423),
        **{v: f"vllm/entrypoints/launchers/cli_args.py:{n}" for v, n in
           (("0.29.0", 432), ("0.30.0", 449), ("0.31.0", 469), ("0.32.0", 524))},
        "0.33.0": "vllm/entrypoints/common/cli_args.py:554",
    },
    "mamba_chunked": _lines("vllm/model_executor/models/config.py", 581, 581, 636, 636, 623, 643, 643, 661, 695, 773),
    "dbo": _lines("vllm/config/vllm.py", 1468, 1538, 1577, 1577, 1688, 1740, 1941, 2188, 2111, 2199),
    "cudagraph": _lines("vllm/config/vllm.py", 1800, 1870, 1909, 1909, 2017, 2173, 2384, 2622, 2516, 2622),
}


def source(ctx: "Context", key: str) -> str:
    return SOURCE.get(key, {}).get(ctx.version, "?")


def finding(
    ctx: "Context",
    flag: "Flag",
    vllm_message: str | None,
    key: str,
    *,
    message: str | None = None,
    note: str = "",
    related_to: list | None = None,
    severity=None,
    fixes: list | None = None,
):
    """A Finding on ``flag`` whose text is vLLM's, plus servelint's clause."""
    from .base import Finding

    text = message or vllm_message or ""
    if note:
        text = f"{text} ({note})"
    return Finding(
        flag.name_span, text, flag=flag.canonical, severity=severity, related=related_to or [],
        fixes=fixes or [], vllm_message=vllm_message, path=path_of(ctx, flag),
        data={"vllm_source": source(ctx, key)},
    )


def removal_fix(ctx: "Context", flags: list["Flag"], title: str):
    """A fix that deletes ``flags`` (all their spellings), or None."""
    from ..diagnostics import Fix
    from ..fixes.edits import remove_flag

    edits = []
    for f in flags:
        text = ctx.text_of(path_of(ctx, f))
        if text is None:
            return None
        edits.extend(remove_flag(text, f, path_of(ctx, f)))
    return Fix(title, edits, applicability=Applicability.UNSAFE, preferred=True) if edits else None


def json_keys_known(inv, dest: str, obj: dict) -> bool:
    """Whether every key of a JSON flag's object is a field of its config
    class (from the release's option schema); vLLM refuses other keys first,
    with its own message.  True when the schema lists no fields."""
    opt = inv.knowledge.by_dest.get(dest)
    info = getattr(opt, "json", None) or {}
    fields = info.get("fields") or {}
    if not fields:
        return True
    return all(isinstance(k, str) and k.replace("-", "_") in fields for k in obj)
