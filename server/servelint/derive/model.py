"""The model as vLLM sees it: its config.json fields and what
``ModelConfig`` derives from them (MLA, MoE, Mamba, the maximum length).

The config.json is read as written.  vLLM reads it through Transformers
(5.x for the releases here), whose config classes can add defaults for
fields the file leaves out; where such a default would change an answer
(expert counts), the model types that have one are listed below.  Every
function answers None when servelint cannot be sure.  Line numbers are of
each release's unpacked wheel, ``vllm/...``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..knowledge import validators
from ..knowledge.validators import VllmCheck
from .base import FrozenValue, is_int
from .flags import value_of, written

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Invocation
    from .view import View

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


def arch_facts(ctx: "View"):
    """``ArchFacts`` of the resolved architecture in this release, or None."""
    arch = ctx.arch
    if arch is None or getattr(arch, "error", None):
        return None
    return arch


# Model types whose vLLM implementation uses MLA (ModelArchitectureConfig
# .is_deepseek_mla, vllm/transformers_utils/model_arch_config_convertor.py,
# the same list in 0.28.0-0.33.0 apart from types that do not matter here).
_MLA_MODEL_TYPES = frozenset(
    """
    axk1 deepseek_v2 deepseek_v3 deepseek_v32 dots3_note deepseek_mtp k3_dspark
    glm5_next glm5_next_text glm_moe_dsa glm4_moe_lite glm4_moe_lite_mtp
    kimi_k2 kimi_linear longcat_flash pangu_ultra_moe pangu_ultra_moe_mtp
    bailing_hybrid bailing_hybrid_mtp bailing_hybrid_v3_mtp hy_v4 hy_v4_mtp
    """.split()
)


_MLA_ARCH_PREFIXES = (
    "DeepseekV2", "DeepseekV3", "DeepseekV32", "DeepseekMTP", "KimiK2", "KimiLinear",
    "Glm4MoeLite", "GlmMoeDsa", "LongcatFlash", "PanguUltraMoE",
)


def uses_mla(ctx: "View") -> bool | None:
    """Whether vLLM runs the model with MLA (``ModelConfig.use_mla``).

    Read from the checkpoint's config.json: an MLA model type with a
    ``kv_lora_rank`` (DeepSeek-V4 is left out: its CPU path differs).
    """
    model = ctx.model
    if model is None or model.architecture is None:
        return None
    if model.config is None:
        # No config.json at hand: the architectures whose checkpoints are MLA.
        name = model.architecture
        if "DeepseekV4" in name:
            return None
        return name.startswith(_MLA_ARCH_PREFIXES)
    cfg = model.config
    text = cfg.get("text_config") if isinstance(cfg.get("text_config"), dict) else cfg
    mtype = text.get("model_type")
    if mtype in ("deepseek_v4", "deepseek_v41"):
        return None
    return mtype in _MLA_MODEL_TYPES and text.get("kv_lora_rank") is not None


def is_mamba_model(ctx: "View") -> bool | None:
    """Whether ``MambaModelConfig.verify_and_update_config`` runs for the model.

    It runs for hybrid models (``HybridAttentionMambaModelConfig``, called in
    ``VllmConfig`` for ``model_config.is_hybrid``: vllm/config/vllm.py:2087
    (0.27.1), :2195 (0.28.0), :2351 (0.29.0), :2562 (0.30.0), :2798 (0.31.0),
    :2661 (0.32.0), :2767 (0.33.0)) and for the attention-free Mamba
    architectures registered with ``MambaModelConfig`` in ``MODELS_CONFIG_MAP``
    (vllm/model_executor/models/config.py).
    """
    arch = arch_facts(ctx)
    if arch is None:
        return None
    return bool(arch.is_hybrid or arch.is_attention_free)


def config_revision(inv: "Invocation") -> tuple[str | None, bool]:
    """The ``--revision`` the model's config.json is read at, and whether
    servelint's bundled copy of a Hub id's config.json (main branch) may
    stand for what vLLM reads.

    It may not when the revision is written but not known, when
    ``--hf-config-path`` names another repo (``ModelConfig.__post_init__``
    reads ``get_config(self.hf_config_path or self.model, ...)``,
    vllm/config/model.py 0.33.0 :680), or when ``reads_config_json`` says
    vLLM reads no config.json.  Takes the invocation, not a view: the engine
    resolves the model before any rule runs, and the signature of a
    ``("model",)`` read includes these flags.
    """
    revision = None
    bundled = reads_config_json(inv)
    flag = inv.last("revision")
    if flag is not None:
        if flag.exact and flag.values:
            revision = flag.values[0].text or None
        else:
            bundled = False
    flag = inv.last("hf_config_path")
    if flag is not None and not (flag.exact and flag.values and flag.values[0].text == inv.model_name):
        bundled = False
    return revision, bundled


def reads_config_json(inv: "Invocation") -> bool:
    """Whether vLLM reads the checkpoint's config.json: ``--config-format``
    unset, ``auto`` or ``hf``.  ``mistral`` reads params.json
    (``get_config``, vllm/transformers_utils/config.py 0.33.0 :882); so does
    ``auto`` for a Mistral-format repo, which the bundled table leaves out
    (tools/knowledge/build_model_configs.py)."""
    flag = inv.last("config_format")
    return flag is None or bool(flag.exact and flag.values and flag.values[0].text in ("auto", "hf"))


def model_config(ctx: "View") -> dict | None:
    """The config.json vLLM reads, or None.

    None when no config.json was found, when the architecture is only
    inferred, and when ``--hf-overrides`` is written (it may replace any
    field; servelint does not apply it).
    """
    model = ctx.model
    if model is None or model.config is None or model.inferred:
        return None
    if written(ctx.invocation, "hf_overrides"):
        return None
    cfg = model.config
    return cfg if isinstance(cfg, dict) or hasattr(cfg, "get") else None


def text_config(ctx: "View") -> dict | None:
    """``hf_text_config``: ``text_config`` when present, else the top level."""
    cfg = model_config(ctx)
    if cfg is None:
        return None
    return hf_text_config(cfg)


def hf_text_config(cfg) -> dict | None:
    """``hf_text_config`` of a config.json (the served model's, a draft's);
    None when Transformers may pick a sub-config servelint does not follow."""
    if any(isinstance(cfg.get(k), dict) for k in _OTHER_TEXT_CONFIG_KEYS):
        return None
    text = cfg.get("text_config")
    if text is None:
        return cfg
    return text if isinstance(text, dict) or hasattr(text, "get") else None


def _model_types(ctx: "View") -> set[str]:
    cfg = model_config(ctx) or {}
    text = text_config(ctx) or {}
    return {t for t in (cfg.get("model_type"), text.get("model_type")) if isinstance(t, str)}


def heterogeneous(ctx: "View") -> bool:
    cfg = model_config(ctx) or {}
    text = text_config(ctx) or {}
    return any(c.get("is_heterogeneous") or c.get("per_layer_config") for c in (cfg, text))


def num_attention_heads(ctx: "View") -> int | None:
    """``model_arch_config.total_num_attention_heads``: the text config's
    ``num_attention_heads`` (model_arch_config_convertor.py
    ``get_total_num_attention_heads``, 0.33.0 :82)."""
    text = text_config(ctx)
    if text is None or heterogeneous(ctx) or _model_types(ctx) & _HEADS_ELSEWHERE:
        return None
    heads = text.get("num_attention_heads")
    return heads if is_int(heads) and heads > 0 else None


def is_moe(ctx: "View") -> bool | None:
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
    arch = arch_facts(ctx)
    if arch is None or "MixtureOfExperts" in (arch.interfaces or ()):
        return None
    return False


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


def derived_max_len(ctx: "View") -> DerivedLen | None:
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
    arch = arch_facts(ctx)
    if arch is None or arch.is_pooling_model:
        return None
    if written(ctx.invocation, "runner") or written(ctx.invocation, "convert"):
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
    disable_sw = value_of(ctx.invocation, "disable_sliding_window")
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
        old = not ctx.at_least("0.30.0")
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


def max_model_len(ctx: "View") -> MaxLen | None:
    """``ModelConfig.max_model_len``: a written positive ``--max-model-len``
    (vLLM stops if it exceeds the derived length, see SL302), else the
    derived length as an int (LongRoPE models: their
    ``original_max_position_embeddings``)."""
    inv = ctx.invocation
    v = value_of(inv, "max_model_len")
    if v.how == "flag":
        if is_int(v.value) and v.value > 0:
            return MaxLen(v.value, "flag", v.flags)
        if v.value not in (-1, None):
            return None
    elif v.how == "unknown" and written(inv, "max_model_len"):
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


# The keys of a plain guess at the length (no RoPE, no tokenizer limit); the
# ``--mamba-block-size`` rule only needs to know when a block size might
# equal it.
_GUESS_LEN_KEYS = (
    "max_position_embeddings",
    "n_positions",
    "max_seq_len",
    "seq_length",
    "model_max_length",
    "max_sequence_length",
    "max_seq_length",
    "seq_len",
)


class GuessedMaxLen(FrozenValue):
    """``ModelConfig.max_model_len``: exact when written, else a best guess
    (``max_model_len_guess``)."""

    __slots__ = _fields = ("value", "exact", "flag")

    def __init__(self, value: int | None, exact: bool, flag: Any = None) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "value", value)
        setattr_(self, "exact", exact)
        setattr_(self, "flag", flag)


def max_model_len_guess(ctx: "View") -> "GuessedMaxLen":
    """``--max-model-len`` when written (``-1``/``auto``: the derived
    length), else the length ``_get_and_verify_max_len`` derives from
    config.json (config/model.py): the smallest of the usual keys, 2048
    when none is present.  The derived value ignores RoPE scaling and the
    tokenizer's limit, so it is only a guess."""
    inv = ctx.invocation
    v = value_of(inv, "max_model_len")
    if written(inv, "max_model_len"):
        if not v.known:
            return GuessedMaxLen(None, False)
        if isinstance(v.value, int) and v.value > 0:
            return GuessedMaxLen(v.value, True, v.flags[0] if v.flags else None)
    model = ctx.model
    if model is None or model.config is None:
        return GuessedMaxLen(None, False)
    cfg = model.config
    text = cfg.get("text_config") if isinstance(cfg.get("text_config"), dict) else cfg
    found = [text[k] for k in _GUESS_LEN_KEYS if isinstance(text.get(k), int) and not isinstance(text.get(k), bool)]
    return GuessedMaxLen(min(found) if found else 2048, False)


# ``_STR_DTYPE_TO_TORCH_DTYPE`` (vllm/config/model.py, the same five names in
# 0.25.0-0.33.0): a ``--dtype`` name → the torch dtype's name.
DTYPE_NAMES = {"half": "float16", "float16": "float16", "float": "float32", "float32": "float32",
               "bfloat16": "bfloat16"}


# ``_FLOAT16_NOT_SUPPORTED_MODELS`` (vllm/config/model.py) holds one model
# type per line with its reason: each is a code fact, so the release's own
# list is generated (plamo2 left it in 0.27.0).
_FP16_CANDIDATES = ("gemma2", "gemma3", "gemma3_text", "plamo2", "glm4")
FLOAT16_UNSUPPORTED_FACTS = tuple(
    VllmCheck(f"model.float16_unsupported.{t}", f'"{t}": "Numerical instability.', "vllm/config/model.py", code=True)
    for t in _FP16_CANDIDATES
)
VLLM_FACTS = FLOAT16_UNSUPPORTED_FACTS


def float16_unsupported_model_types(version: str) -> tuple[str, ...]:
    """The model types ``_check_valid_dtype`` refuses float16 for in ``version``."""
    return tuple(t for t, fact in zip(_FP16_CANDIDATES, FLOAT16_UNSUPPORTED_FACTS) if validators.has(fact.key, version))


def dtype(ctx: "View") -> tuple[str | None, bool, str]:
    """``ModelConfig.dtype`` as a name, whether it holds on every GPU of the
    target, and how it was decided.

    A written ``--dtype`` decides.  ``auto`` takes the checkpoint's dtype
    (``dtype``/``torch_dtype`` of config.json, ``_resolve_auto_dtype``,
    vllm/config/model.py): float16 stays float16 on every CUDA GPU vLLM runs
    on; bfloat16 becomes float16 on GPUs without bfloat16 (compute
    capability below 8.0, vllm/platforms/cuda.py); float32 is downcast to the
    GPU's first supported type.  Returns (None, ...) when not known.
    """
    inv = ctx.invocation
    written_dtype = value_of(inv, "dtype")
    if written_dtype.how == "flag":
        if not isinstance(written_dtype.value, str):
            return None, False, ""
        name = written_dtype.value.lower()
        if name in DTYPE_NAMES:
            return DTYPE_NAMES[name], True, f"--dtype {written_dtype.value}"
        if name != "auto":
            return None, False, ""
    elif not written_dtype.known:
        return None, False, ""
    if ctx.target != "cuda":
        return None, False, ""
    cfg = model_config(ctx)
    if cfg is None:
        return None, False, ""
    text = text_config(ctx) or {}
    raw = cfg.get("dtype") or cfg.get("torch_dtype") or text.get("dtype") or text.get("torch_dtype")
    if raw not in ("float16", "bfloat16"):
        return None, False, ""
    if cfg.get("model_type") in float16_unsupported_model_types(ctx.version):
        return None, False, ""
    arch = arch_facts(ctx)
    if arch is None or arch.is_pooling_model:
        return None, False, ""
    if raw == "float16":
        return "float16", True, "the checkpoint's dtype float16"
    return "bfloat16", False, "the checkpoint's dtype bfloat16, kept on GPUs with bfloat16 support"



# Model types with a ModelArchConfigConvertor of their own
# (``MODEL_ARCH_CONFIG_CONVERTORS``, transformers_utils/model_arch_config_convertor.py,
# the union over 0.27.1-0.33.0): their head counts may be read another way.
_OWN_CONVERTOR = frozenset(
    """
    RefinedWeb RefinedWebModel bailing_hybrid_mtp bailing_hybrid_v3_mtp cohere_asr dbrx deepseek_mtp
    deepseek_v4 diffusion_gemma diffusion_gemma_text ernie_mtp falcon falcon_mamba gemma4 gemma4_mtp
    gemma4_text gemma4_unified gemma4_unified_text glm4_moe_mtp glm_ocr_mtp longcat_flash
    longcat_flash_mtp mamba medusa mimo_mtp mimo_v2 mimo_v2_flash mimo_v2_mtp mimo_v2_omni_mtp
    moss_audio mpt nemotron-nas pangu_ultra_moe_mtp qwen3_5 qwen3_5_mtp qwen3_next_mtp
    qwen3_omni_moe qwen4_exp_mtp step3p5_mtp timm_wrapper zamba2
    """.split()
)


# ``CONFIG_FIELD_ALIASES["total_num_kv_heads"]`` (transformers_utils/config.py,
# 0.33.0 :57; "num_attention_groups" is newer): the first one present wins.
_KV_HEAD_KEYS = ("n_head_kv", "num_kv_heads", "num_key_value_heads", "multi_query_group_num", "num_attention_groups")


def total_num_kv_heads(ctx: "View") -> int | None:
    """``ModelConfig.get_total_num_kv_heads()``: the text config's
    ``num_key_value_heads`` (or ``num_kv_heads``) as written in config.json.

    None unless exactly one of those two keys is written as a positive int
    and no other alias is: a key left out takes the config class's default,
    which is not always ``num_attention_heads`` (Qwen2's is 32).  None as
    well for model types with a convertor of their own, heterogeneous
    models and an MLA model (its KV heads are not what vLLM uses).
    """
    text = text_config(ctx)
    if text is None or heterogeneous(ctx):
        return None
    types = _model_types(ctx)
    if not types or types & _OWN_CONVERTOR or types & _HEADS_ELSEWHERE:
        return None
    present = [k for k in _KV_HEAD_KEYS if text.get(k) is not None]
    if len(present) != 1 or present[0] not in ("num_kv_heads", "num_key_value_heads"):
        return None
    value = text.get(present[0])
    return value if is_int(value) and value > 0 else None


# -- Encoder-decoder models: the config classes' defaults ------------------------

_ENC_DEC = None


def _encoder_decoder_table() -> dict:
    """``knowledge/data/encoder_decoder_types.json`` (generated by
    tools/knowledge/encoder_decoder_types.py from Transformers' config
    classes); empty when missing."""
    global _ENC_DEC
    if _ENC_DEC is None:
        import json
        import os

        path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "knowledge", "data",
                            "encoder_decoder_types.json")
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            _ENC_DEC = {"yes": frozenset(data.get("encoder_decoder", ())),
                        "unknown": frozenset(data.get("unknown", ())),
                        "all": frozenset(data.get("model_types", ()))}
        except (OSError, ValueError):
            _ENC_DEC = {"yes": frozenset(), "unknown": frozenset(), "all": frozenset()}
    return _ENC_DEC


def is_encoder_decoder(ctx: "View") -> bool | None:
    """``ModelConfig.is_encoder_decoder``: ``is_encoder_decoder`` of the
    config or its text config (vllm/transformers_utils/config.py, the same
    in 0.25.0-0.33.0), as written in config.json or, where the file leaves
    it out, the default of the model type's Transformers config class.
    None when servelint cannot tell (no config.json, ``--hf-overrides``, a
    model type outside Transformers' mapping: vLLM's own or remote code)."""
    cfg = model_config(ctx)
    if cfg is None:
        return None
    text = hf_text_config(cfg)
    if text is None:
        return None
    table = _encoder_decoder_table()
    answer: bool | None = False
    for c in (cfg, text):
        flag = c.get("is_encoder_decoder")
        if flag is True:
            return True
        if flag is False:
            continue
        mtype = c.get("model_type")
        if not isinstance(mtype, str) or mtype not in table["all"] or mtype in table["unknown"]:
            answer = None
        elif mtype in table["yes"]:
            return True
    return answer
