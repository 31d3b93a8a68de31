"""What vLLM derives from a launch before its config validators run.

The ReplaySSM and ``--mamba-block-size`` validators of ``VllmConfig``
(``vllm/config/vllm.py``) do not look at the flags as written: they look at
``CacheConfig``, ``MambaConfig``, ``SpeculativeConfig``... after
``EngineArgs.create_engine_config`` filled in the defaults of the release, the
model's config hooks adjusted them and ``VllmConfig.__post_init__`` ran.  Each
function here derives one of those values from an ``Invocation`` the way one
release does, citing where.  They answer ``Derived(value=None)`` when the
launch does not say enough (a value only known at run time, an architecture
servelint could not resolve, a platform detail), and rules then stay silent.

Line numbers are of each release's unpacked wheel, ``vllm/...``.  Only
0.27.0-0.33.0 are cited where the fact is about ReplaySSM; the prefix-caching
and ``--mamba-block-size`` facts also hold for 0.25.0/0.26.0 as noted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..values import check_value, effective, human_readable_int
from .base import FrozenValue, version_key

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Flag, Invocation
    from .base import Context


class Derived(FrozenValue):
    """A value vLLM ends up with, and how servelint knows it.

    ``value`` None means unknown.  ``how`` is "flag" (written in the launch),
    "env", "default" (the release's default for this model) or "platform";
    ``why`` is a short clause for messages ("prefix caching is on by default
    for hybrid models in vLLM 0.28.0").  ``flags`` are the written flags that
    decided the value, for ``related`` locations and fixes.
    """

    __slots__ = _fields = ("value", "how", "why", "flags")

    def __init__(self, value: Any, how: str = "unknown", why: str = "", flags: tuple = ()) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "value", value)
        setattr_(self, "how", how)
        setattr_(self, "why", why)
        setattr_(self, "flags", flags)

    @property
    def known(self) -> bool:
        return self.value is not None


UNKNOWN = Derived(None)


def at_least(version: str, floor: str) -> bool:
    return version_key(version) >= version_key(floor)


# ---------------------------------------------------------------------------
# Reading flags
# ---------------------------------------------------------------------------


def written(inv: "Invocation", dest: str) -> list["Flag"]:
    """The flags of ``dest`` in the launch (CLI and --config), in argv order."""
    return inv.flags_for(dest)


def last_flag(inv: "Invocation", dest: str) -> "Flag | None":
    """The flag argparse keeps for ``dest`` (the last one)."""
    return inv.last(dest)


def _flags_exact(flags: list["Flag"]) -> bool:
    return all(f.exact and not f.missing_value and f.unexpected_value is None for f in flags)


def value_of(inv: "Invocation", dest: str) -> Derived:
    """The converted value of a plain (non-JSON) option, or its parser default.

    Unknown when the deciding flag's value is not known from the file or is
    one argparse rejects (another rule reports that).
    """
    key = (value_of, dest, len(inv.flags))
    got = inv.derived.get(key)
    if got is None:
        got = inv.derived[key] = _value_of(inv, dest)
    return got


def _value_of(inv: "Invocation", dest: str) -> Derived:
    flag = last_flag(inv, dest)
    opt = inv.knowledge.by_dest.get(dest)
    if flag is None:
        if opt is None:
            return UNKNOWN
        return Derived(opt.default, "default")
    if not _flags_exact([flag]):
        return UNKNOWN
    if opt is not None and opt.kind in ("bool", "store_true"):
        return Derived(not flag.negated, "flag", flags=(flag,))
    if not flag.values:
        return Derived(opt.const if opt is not None else None, "flag", flags=(flag,))
    checked = check_value(flag.option, flag.values[0].text)
    if checked.problem:
        return UNKNOWN
    return Derived(checked.value, "flag", flags=(flag,))


def json_of(inv: "Invocation", dest: str) -> Derived:
    """A JSON option's object as vLLM receives it (dotted keys merged), or None."""
    flags = written(inv, dest)
    if not flags:
        return Derived({}, "default")
    if not _flags_exact(flags):
        return UNKNOWN
    value = effective(inv, dest)
    if value is None:
        # "None"/"null": the option is explicitly unset.
        return Derived({}, "flag", flags=tuple(flags))
    if not isinstance(value, dict):
        return UNKNOWN
    return Derived(value, "flag", flags=tuple(flags))


# ---------------------------------------------------------------------------
# --use-replayssm
# ---------------------------------------------------------------------------


def replayssm_flag(inv: "Invocation") -> "Flag | None":
    """The ``--use-replayssm`` flag that turns ReplaySSM on, or None.

    ``CacheConfig.use_replayssm`` is a plain boolean flag (0.27.0+
    ``engine/arg_utils.py`` ``--use-replayssm``); the last spelling wins, so
    ``--use-replayssm --no-use-replayssm`` leaves it off.
    """
    flag = last_flag(inv, "use_replayssm")
    if flag is None or not flag.exact or flag.unexpected_value is not None or flag.negated:
        return None
    return flag


# ---------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------

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


def uses_mla(ctx: "Context") -> bool | None:
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


def arch_facts(ctx: "Context"):
    """``ArchFacts`` of the resolved architecture in this release, or None."""
    arch = ctx.arch
    if arch is None or getattr(arch, "error", None):
        return None
    return arch


def is_mamba_model(ctx: "Context") -> bool | None:
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


# ---------------------------------------------------------------------------
# Prefix caching
# ---------------------------------------------------------------------------


def prefix_caching(ctx: "Context") -> Derived:
    """``CacheConfig.enable_prefix_caching`` as the validators see it.

    ``--enable-prefix-caching`` defaults to None and
    ``EngineArgs._set_default_chunked_prefill_and_prefix_caching_args``
    replaces None with the model's default (engine/arg_utils.py):

    * up to 0.27.1: off for hybrid models: ``is_prefix_caching_supported
      and not is_hybrid`` (0.26.0 :2520, 0.27.1 :2604-2606); in 0.25.0
      (:2484) ``is_prefix_caching_supported`` itself is False for "hybrid"
      (config/model.py :1845);
    * 0.28.0+: ``is_prefix_caching_supported`` (0.28.0 :2650, 0.29.0 :2766,
      0.30.0 :2798, 0.31.0 :2926, 0.32.0 :2991, 0.33.0 :3045), which for a
      generative model is True for "hybrid" and "decoder" and False for
      "attention_free" and "encoder_decoder" (config/model.py
      ``is_prefix_caching_supported``, 0.28.0 :2034, 0.33.0 :2239).

    Then, on the CPU platform, ``CpuPlatform.check_and_update_config`` turns
    it off for MLA models (platforms/cpu.py, 0.28.0 :353, 0.29.0 :448); from
    0.30.0 (:490, 0.33.0 :543) only when the CPU has no AMX tiles (x86
    Sapphire Rapids and later have them).  servelint assumes a CPU without
    AMX, as most are (and as the machine the oracle ran on).
    """
    inv = ctx.invocation
    version = ctx.version
    explicit = value_of(inv, "enable_prefix_caching")
    if explicit.how == "flag":
        value = explicit
    elif explicit.how == "default" and explicit.value is not None:
        value = Derived(bool(explicit.value), "default")
    elif not explicit.known and last_flag(inv, "enable_prefix_caching") is not None:
        return UNKNOWN
    else:
        value = _default_prefix_caching(ctx)
    if ctx.target == "cpu" and value.value and at_least(version, "0.28.0"):
        mla = uses_mla(ctx)
        if mla is None:
            return UNKNOWN
        if mla:
            if at_least(version, "0.30.0"):
                why = f"vLLM {version} turns prefix caching off for MLA models on CPUs without AMX"
            else:
                why = f"vLLM {version} turns prefix caching off for MLA models on CPU"
            return Derived(False, "platform", why)
    return value


def _default_prefix_caching(ctx: "Context") -> Derived:
    arch = arch_facts(ctx)
    version = ctx.version
    if arch is None:
        return UNKNOWN
    if arch.is_pooling_model and not arch.is_text_generation_model:
        return UNKNOWN  # pooling defaults depend on the pooler
    model = ctx.model
    if model is not None and model.config is not None and model.config.get("is_encoder_decoder") is True:
        return Derived(False, "default", f"prefix caching is off by default for encoder-decoder models in vLLM {version}")
    if arch.is_hybrid:
        if not at_least(version, "0.28.0"):
            return Derived(False, "default", f"prefix caching is off by default for hybrid models in vLLM {version}")
        return Derived(True, "default", f"prefix caching is on by default for hybrid models in vLLM {version}")
    if arch.is_attention_free:
        return Derived(False, "default", f"prefix caching is off by default for attention-free models in vLLM {version}")
    return Derived(True, "default", f"prefix caching is on by default in vLLM {version}")


# ---------------------------------------------------------------------------
# Mamba cache mode
# ---------------------------------------------------------------------------


def mamba_cache_mode(ctx: "Context") -> Derived:
    """``CacheConfig.mamba_cache_mode`` after ``MambaModelConfig`` adjusted it.

    ``--mamba-cache-mode`` defaults to "none" (config/cache.py) and reaches
    CacheConfig through ``create_engine_config`` up to 0.32.0
    (engine/arg_utils.py, 0.28.0 :2010, 0.32.0 :2283); 0.33.0 ignores the
    flag (deprecated, :2304-2305, not passed on).  For a Mamba model
    ``MambaModelConfig.verify_and_update_config``
    (model_executor/models/config.py, 0.27.1 :600, 0.28.0 :589, 0.29.0 :609,
    0.30.0 :609, 0.31.0 :627, 0.32.0 :672, 0.33.0 :750) then sets:

    * prefix caching off: "none";
    * prefix caching on, 0.27.x: "none" becomes "all" if the model supports
      Mamba prefix caching, else "align"; "all" without that support becomes
      "align";
    * prefix caching on, 0.28.0-0.31.0: "none" becomes "align"; "all" stays
      only for models that support Mamba prefix caching;
    * prefix caching on, 0.32.0+: "none" becomes "align" ("all" is no longer
      a choice of the flag).

    Other models keep the flag's value.
    """
    inv = ctx.invocation
    version = ctx.version
    if at_least(version, "0.33.0"):
        requested = Derived("none", "default")
    else:
        requested = value_of(inv, "mamba_cache_mode")
        if not requested.known:
            return UNKNOWN
    mamba = is_mamba_model(ctx)
    if mamba is None:
        return UNKNOWN
    if not mamba:
        return requested
    pc = prefix_caching(ctx)
    if not pc.known:
        return UNKNOWN
    flags = requested.flags + pc.flags
    pc_why = pc.why if pc.how != "flag" else ""
    if not pc.value:
        return Derived("none", pc.how, pc_why, flags)
    mode = requested.value
    supports = _supports_mamba_prefix_caching(ctx)
    if mode == "none":
        if not at_least(version, "0.28.0"):
            if supports is None:
                return UNKNOWN
            mode = "all" if supports else "align"
            why = f"with prefix caching on, vLLM {version} uses Mamba cache mode '{mode}' for this model"
            return Derived(mode, "default", "; ".join(w for w in (pc_why, why) if w), flags)
        return Derived("align", "default", pc_why, flags)
    if mode == "all":
        if supports is None:
            return UNKNOWN
        if not supports:
            return Derived("align", "default", "this model falls back to Mamba cache mode 'align'", flags)
        return Derived("all", "flag", pc_why, flags)
    return Derived(mode, requested.how, pc_why, flags)


def _supports_mamba_prefix_caching(ctx: "Context") -> bool | None:
    """``ModelConfig.supports_mamba_prefix_caching`` (0.27.0-0.32.0), from the
    generated ``_ModelInfo``; the field is gone in 0.33.0."""
    arch = arch_facts(ctx)
    if arch is None:
        return None
    try:
        value = arch.supports_mamba_prefix_caching
    except AttributeError:
        return None
    return None if value is None else bool(value)


# ---------------------------------------------------------------------------
# Speculative decoding
# ---------------------------------------------------------------------------


class Speculation(FrozenValue):
    """``VllmConfig.num_speculative_tokens`` and what set it.

    ``active`` None: servelint cannot tell.  ``tokens`` is the explicit
    ``num_speculative_tokens`` (None when vLLM derives it, e.g. from an MTP
    draft's ``n_predict``; it is then still > 0: the field is ``gt=0``,
    config/speculative.py).
    """

    __slots__ = _fields = ("active", "tokens", "method", "flags")

    def __init__(self, active: bool | None, tokens: int | None = None, method: str | None = None,
                 flags: tuple = ()) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "active", active)
        setattr_(self, "tokens", tokens)
        setattr_(self, "method", method)
        setattr_(self, "flags", flags)


def speculation(inv: "Invocation") -> Speculation:
    """Speculative decoding as ``EngineArgs.create_speculative_config`` builds it.

    ``--speculative-config``/``-sc`` (JSON or dotted keys) plus the shortcuts
    ``--spec-method``, ``--spec-model`` and ``--spec-tokens``, merged into one
    dict (engine/arg_utils.py ``create_speculative_config``: 0.27.1 :1790,
    0.28.0 :1830, 0.33.0 :2100).  No dict: no speculative decoding, and
    ``num_speculative_tokens`` is 0 (config/vllm.py ``num_speculative_tokens``:
    0.27.1 :564, 0.28.0 :574, 0.33.0 :612).
    """
    cfg = json_of(inv, "speculative_config")
    if not cfg.known:
        return Speculation(None)
    merged = dict(cfg.value)
    flags = list(cfg.flags)
    for dest, key in (("spec_method", "method"), ("spec_model", "model"), ("spec_tokens", "num_speculative_tokens")):
        if inv.knowledge.by_dest.get(dest) is None:
            continue
        if not written(inv, dest):
            continue
        v = value_of(inv, dest)
        if v.how == "unknown":
            return Speculation(None)
        merged[key] = v.value
        flags.extend(v.flags)
    merged = {k.replace("-", "_"): v for k, v in merged.items() if v is not None}
    if not merged:
        return Speculation(False)
    tokens = merged.get("num_speculative_tokens")
    if isinstance(tokens, str):
        try:
            tokens = human_readable_int(tokens)
        except ValueError:
            tokens = None
    if isinstance(tokens, bool) or not isinstance(tokens, int):
        tokens = None
    elif tokens <= 0:
        return Speculation(None)  # SpeculativeConfig rejects it itself
    if "method" not in merged and "model" not in merged:
        return Speculation(None)  # SpeculativeConfig needs one of them
    method = merged.get("method") if isinstance(merged.get("method"), str) else None
    return Speculation(True, tokens, method, tuple(flags))


# ---------------------------------------------------------------------------
# Mamba backend and ReplaySSM buffer
# ---------------------------------------------------------------------------

def mamba_backends(version: str) -> tuple[str, ...]:
    """The members of ``MambaBackendEnum`` (config/mamba.py): CPU from 0.27.0."""
    if at_least(version, "0.27.0"):
        return ("TRITON", "FLASHINFER", "CPU")
    return ("TRITON", "FLASHINFER")


def mamba_backend(inv: "Invocation") -> Derived:
    """``MambaConfig.backend``: the ``MambaBackendEnum`` member name.

    ``create_engine_config`` converts the flag with
    ``MambaBackendEnum[self.mamba_backend.upper()]`` (engine/arg_utils.py,
    0.27.1 :2365, 0.28.0 :2402, 0.29.0 :2518, 0.30.0 :2535, 0.31.0 :2661,
    0.32.0 :2732, 0.33.0 :2773), so ``FlashInfer`` is FLASHINFER; the members
    are TRITON, FLASHINFER and, from 0.27.0, CPU (config/mamba.py); the
    default is TRITON.
    """
    v = value_of(inv, "mamba_backend")
    if not v.known:
        return UNKNOWN
    raw = v.value
    name = getattr(raw, "name", None) or str(raw).upper()
    if name not in mamba_backends(inv.version):
        return UNKNOWN  # MambaConfig raises "Unknown Mamba SSU backend" first
    return Derived(name, v.how, "", v.flags)


def replayssm_buffer_len(inv: "Invocation") -> Derived:
    """``CacheConfig.replayssm_buffer_len`` (default 16, ``gt=0``)."""
    v = value_of(inv, "replayssm_buffer_len")
    if not v.known or not isinstance(v.value, int) or v.value <= 0:
        return UNKNOWN
    return v


def pipeline_parallel_size(inv: "Invocation") -> Derived:
    v = value_of(inv, "pipeline_parallel_size")
    if not v.known or not isinstance(v.value, int):
        return UNKNOWN
    return v


def stochastic_rounding(inv: "Invocation") -> Derived:
    """``MambaConfig.enable_stochastic_rounding`` (``--enable-mamba-cache-stochastic-rounding``)."""
    if inv.knowledge.by_dest.get("enable_mamba_cache_stochastic_rounding") is None:
        return Derived(False, "default")
    v = value_of(inv, "enable_mamba_cache_stochastic_rounding")
    if not v.known:
        return UNKNOWN
    return Derived(bool(v.value), v.how, "", v.flags)


# ---------------------------------------------------------------------------
# KV connectors
# ---------------------------------------------------------------------------

_KV_ROLES = ("kv_producer", "kv_consumer", "kv_both")


def kv_connector(inv: "Invocation") -> Derived:
    """``kv_transfer_config.is_kv_transfer_instance``: a connector with a role.

    ``KVTransferConfig.is_kv_transfer_instance`` is ``kv_connector is not None
    and kv_role in KVRole`` (config/kv_transfer.py, 0.27.1-0.29.0 :109,
    0.30.0 :143, 0.31.0 :142, 0.32.0/0.33.0 :127).  ``--kv-offloading-size``
    (any value) makes ``VllmConfig._post_init_kv_transfer_config`` create one:
    OffloadingConnector (or LMCacheMPConnector) with ``kv_role="kv_both"``
    (config/vllm.py, 0.27.1 :893, 0.28.0 :948, 0.29.0 :964, 0.30.0 :1032,
    0.31.0 :1124, 0.32.0 :1099, 0.33.0 :1151), run in ``__post_init__``
    before the validators.
    """
    flags: list = []
    if last_flag(inv, "kv_offloading_size") is not None:
        size = value_of(inv, "kv_offloading_size")
        if size.how == "unknown":
            return UNKNOWN
        if size.value is not None:  # "None" leaves offloading off
            return Derived(True, "flag", "--kv-offloading-size creates a KV offloading connector", size.flags)
    cfg = json_of(inv, "kv_transfer_config")
    if not cfg.known:
        return UNKNOWN
    value = cfg.value
    flags.extend(cfg.flags)
    connector = value.get("kv_connector")
    role = value.get("kv_role")
    if connector is None:
        return Derived(False, cfg.how, "", tuple(flags))
    if role not in _KV_ROLES:
        return UNKNOWN  # KVTransferConfig rejects a connector without a valid role
    return Derived(True, "flag", f"--kv-transfer-config sets connector {connector} ({role})", tuple(flags))


# ---------------------------------------------------------------------------
# Model Runner V1 / V2
# ---------------------------------------------------------------------------

V2_ENV = "VLLM_USE_V2_MODEL_RUNNER"


def has_triton(target: str) -> bool | None:
    """``HAS_TRITON`` (vllm/triton_utils/importing.py) on the declared target.

    True on CUDA and ROCm (triton with one active driver); False on CPU, as
    under the oracle (no GPU driver; a vLLM CPU build without triton's CPU
    backend); unknown elsewhere.
    """
    return {"cuda": True, "rocm": True, "cpu": False}.get(target)


def v2_env(inv: "Invocation") -> Derived:
    """``envs.VLLM_USE_V2_MODEL_RUNNER``: ``bool(int(value))``, None if unset
    (envs.py ``maybe_convert_bool``: 0.27.1 :325, 0.28.0 :338, 0.33.0 :360)."""
    var = inv.env.get(V2_ENV)
    if var is None:
        return Derived(None, "default")
    if var.value is None or not var.exact:
        return UNKNOWN
    try:
        value = bool(int(var.value))
    except ValueError:
        return UNKNOWN  # vLLM itself fails reading it
    return Derived(value, "env", f"{V2_ENV}={var.value}")


# Flags behind the other entries of ``_get_v2_model_runner_unsupported_features``,
# which servelint does not evaluate: when one is written the choice is
# unknown.  0.29.0-0.31.0 also look at elastic EP and, up to 0.30.0, logits
# processors (0.29.0 also KV sharing fast prefill); 0.32.0+ only at
# external_launcher with pipeline parallelism and ubatching (DBO).  The
# compilation mode (stock torch.compile, 0.29.0-0.31.0) is evaluated.
_V2_OPAQUE_ALWAYS = ("distributed_executor_backend", "enable_dbo", "ubatch_size")
_V2_OPAQUE_BEFORE_0_32 = (
    "enable_elastic_ep",
    "logits_processors",
    "kv_sharing_fast_prefill",
)
_V2_OPAQUE_DESTS = _V2_OPAQUE_ALWAYS + _V2_OPAQUE_BEFORE_0_32 + (
    "attention_config",
    "watermark_config",
    "prefill_context_parallel_size",
)


def _spec_blocks_v2(version: str, spec: Speculation) -> bool | None:
    """Whether the speculative method is in the release's "V2 does not yet
    support" list (``_get_v2_model_runner_unsupported_features``)."""
    if not spec.active:
        return False if spec.active is False else None
    method = spec.method
    if method is None:
        return None  # derived from the draft model's name/config
    if version_key(version) <= version_key("0.29.0"):
        # 0.28.0 :2369, 0.29.0 :2539: ngram/ngram_gpu, and anything but these.
        allowed = ("eagle", "eagle3", "mtp", "dflash", "dspark", "extract_hidden_states")
        return method not in allowed
    if version_key(version) <= version_key("0.30.0"):
        blocked = ("ngram", "ngram_gpu", "draft_model", "suffix", "medusa", "mlp_speculator", "custom_class")
    elif version_key(version) <= version_key("0.31.0"):
        blocked = ("ngram", "ngram_gpu", "suffix", "medusa", "mlp_speculator", "custom_class")
    elif version_key(version) <= version_key("0.32.0"):
        blocked = ("suffix", "medusa", "mlp_speculator", "custom_class")
    else:
        blocked = ("suffix", "custom_class")
    return method in blocked


def use_v2_model_runner(ctx: "Context") -> Derived:
    """``VllmConfig.use_v2_model_runner`` on the declared target.

    0.29.0-0.33.0 (config/vllm.py ``use_v2_model_runner``: 0.29.0 :645,
    0.30.0 :675, 0.31.0 :701, 0.32.0 :703, 0.33.0 :731):

    1. (0.30.0+) a HiSparse attention config or a watermark config forces V2;
    2. ``VLLM_USE_V2_MODEL_RUNNER`` from the launch's environment, if set;
    3. (0.29.0-0.31.0, ROCm) V1 for some architectures: unknown here;
    4. no Triton (``HAS_TRITON``, see ``has_triton``): V1;
    5. any feature of ``_get_v2_model_runner_unsupported_features`` (0.29.0
       :2539, 0.30.0 :2815, 0.31.0 :3051, 0.32.0 :2914, 0.33.0 :3053): V1.
       servelint evaluates the speculative method, stock torch.compile
       (before 0.32.0) and Mamba cache mode 'all' (0.30.0/0.31.0); tensor
       parallelism before 0.32.0 (sequence
       parallelism depends on the model's size) and any other flag of that
       list make the answer unknown;
    6. otherwise V2.

    0.26.0-0.28.0 (0.26.0 :550, 0.27.1 :578, 0.28.0 :615): the environment
    variable, then (0.27.0+) prefill context parallelism > 1 or a DSpark
    draft force V2; the
    default path returns V1 without Triton and otherwise depends on a list
    of default-V2 architectures, which servelint does not model (unknown).
    """
    inv = ctx.invocation
    version = ctx.version
    target = ctx.target
    if at_least(version, "0.30.0"):
        forced = _forced_v2_by_config(inv)
        if forced.value is not False:
            return forced
    env = v2_env(inv)
    if env.how == "env" or env.how == "unknown":
        return env
    triton = has_triton(target)
    if not at_least(version, "0.29.0"):
        pcp = value_of(inv, "prefill_context_parallel_size")
        if written(inv, "prefill_context_parallel_size") and at_least(version, "0.27.0"):
            if not pcp.known:
                return UNKNOWN
            if isinstance(pcp.value, int) and pcp.value > 1:
                return Derived(True, "flag", "prefill context parallelism requires Model Runner V2", pcp.flags)
        spec = speculation(inv)
        if spec.active is None or spec.active and spec.method in (None, "dflash"):
            return UNKNOWN
        if spec.active and spec.method == "dspark":
            return Derived(True, "flag", "DSpark requires Model Runner V2", spec.flags)
        if triton is False:
            return Derived(False, "platform", f"vLLM {version} picks Model Runner V1 without Triton (target {target})")
        return UNKNOWN
    if target == "rocm" and not at_least(version, "0.32.0"):
        return UNKNOWN
    if triton is None:
        return UNKNOWN
    if not triton:
        return Derived(False, "platform", f"vLLM {version} picks Model Runner V1 without Triton (target {target})")
    opaque = _V2_OPAQUE_ALWAYS if at_least(version, "0.32.0") else _V2_OPAQUE_ALWAYS + _V2_OPAQUE_BEFORE_0_32
    if any(written(inv, dest) for dest in opaque):
        return UNKNOWN
    if not at_least(version, "0.32.0"):
        tp = value_of(inv, "tensor_parallel_size")
        if not tp.known or (isinstance(tp.value, int) and tp.value > 1):
            return UNKNOWN
        compilation = json_of(inv, "compilation_config")
        if not compilation.known:
            return UNKNOWN
        mode = compilation.value.get("mode")
        if mode == 1 or str(mode).upper() in ("1", "STOCK_TORCH_COMPILE"):
            return Derived(False, "flag", f"Model Runner V2 does not support stock torch.compile in vLLM {version}",
                           compilation.flags)
    spec = speculation(inv)
    blocked = _spec_blocks_v2(version, spec)
    if blocked is None:
        return UNKNOWN
    if blocked:
        return Derived(False, "default", f"Model Runner V2 does not support speculative method '{spec.method}' in vLLM {version}", spec.flags)
    if spec.active and _spec_parallel_drafting(inv):
        return UNKNOWN
    if at_least(version, "0.30.0") and not at_least(version, "0.32.0"):
        mode = mamba_cache_mode(ctx)
        if not mode.known:
            return UNKNOWN
        if mode.value == "all":
            return Derived(False, "default", "Model Runner V2 does not support Mamba cache mode 'all'", mode.flags)
    return Derived(True, "default", f"vLLM {version} picks Model Runner V2 by default on {target.upper()}")


def _forced_v2_by_config(inv: "Invocation") -> Derived:
    """0.30.0+: ``attention_config.hisparse_config`` or ``watermark_config``
    set makes ``use_v2_model_runner`` True before the environment is read."""
    for dest in ("attention_config", "watermark_config"):
        flags = written(inv, dest)
        if not flags:
            continue
        cfg = json_of(inv, dest)
        if not cfg.known:
            return UNKNOWN
        if dest == "attention_config":
            on = cfg.value.get("hisparse_config") is not None
        else:
            on = effective(inv, dest) is not None  # even "{}" builds a WatermarkConfig
        if on:
            return Derived(True, "flag", f"{flags[-1].canonical} requires Model Runner V2", tuple(flags))
    return Derived(False, "default")


def _spec_parallel_drafting(inv: "Invocation") -> bool:
    cfg = json_of(inv, "speculative_config")
    return bool(cfg.known and cfg.value.get("parallel_drafting"))


# ---------------------------------------------------------------------------
# max_model_len, for --mamba-block-size
# ---------------------------------------------------------------------------

_MAX_LEN_KEYS = (
    "max_position_embeddings",
    "n_positions",
    "max_seq_len",
    "seq_length",
    "model_max_length",
    "max_sequence_length",
    "max_seq_length",
    "seq_len",
)


class MaxLen(FrozenValue):
    """``ModelConfig.max_model_len``: exact when written, else a best guess."""

    __slots__ = _fields = ("value", "exact", "flag")

    def __init__(self, value: int | None, exact: bool, flag: Any = None) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "value", value)
        setattr_(self, "exact", exact)
        setattr_(self, "flag", flag)


def max_model_len(ctx: "Context") -> MaxLen:
    """``--max-model-len`` when written (``-1``/``auto``: the derived
    length), else the length ``_get_and_verify_max_len`` derives from
    config.json (config/model.py): the smallest of the usual keys, 2048
    when none is present.  The derived value ignores RoPE scaling and the
    tokenizer's limit, so it is only a guess."""
    inv = ctx.invocation
    v = value_of(inv, "max_model_len")
    if written(inv, "max_model_len"):
        if not v.known:
            return MaxLen(None, False)
        if isinstance(v.value, int) and v.value > 0:
            return MaxLen(v.value, True, v.flags[0] if v.flags else None)
    model = ctx.model
    if model is None or model.config is None:
        return MaxLen(None, False)
    cfg = model.config
    text = cfg.get("text_config") if isinstance(cfg.get("text_config"), dict) else cfg
    found = [text[k] for k in _MAX_LEN_KEYS if isinstance(text.get(k), int) and not isinstance(text.get(k), bool)]
    return MaxLen(min(found) if found else 2048, False)
