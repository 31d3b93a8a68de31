"""The quantization method vLLM ends up with: ``ModelConfig.quantization``.

``ModelConfig._verify_quantization`` (vllm/config/model.py) reads the
checkpoint's quantization config (config.json ``quantization_config``, else
``compression_config``, else the same in ``text_config``), lets every
quantization method's ``override_quantization_method`` claim it, and stops
when the method left differs from ``--quantization``, or, for a launch whose
checkpoint is not quantized, when ``--quantization`` (lower-cased by
``ModelConfig.validate_quantization_before``) is not one of the release's
``QUANTIZATION_METHODS``.

The override classmethods (in vllm/model_executor/layers/quantization/,
the same in 0.25.0-0.33.0 except where noted) and what makes one claim a
checkpoint:

* ``AutoGPTQConfig`` (auto_gptq.py): ``quant_method`` "gptq" and
  ``--quantization`` unset or one of gptq, gptq_marlin, auto_gptq, marlin
  (``OVERRIDE_USER_VALUES``);
* ``AutoAWQConfig`` (auto_awq.py): "awq" and unset/awq/awq_marlin/auto_awq/
  marlin, never on a CPU platform (``current_platform.is_cpu()``);
* ``MoeWNA16Config`` (moe_wna16.py): ``--quantization moe_wna16`` on a gptq
  or awq checkpoint of some shapes and GPUs;
* ``INCConfig`` (inc/inc.py): "auto-round";
* the four ModelOpt classes (modelopt.py): a ``quant_method`` starting with
  "modelopt" and its ``quant_algo``;
* ``GptOssMxfp4Config`` (mxfp4.py): "mxfp4" or "gpt_oss_mxfp4" with
  ``model_type`` "gpt_oss";
* ``DeepseekV4FP8Config`` (vllm/models/deepseek_v4/quant_config.py; on CUDA
  from 0.30.0 also models/deepseek_v41/quant_config.py): "fp8" or
  "deepseek_v4_fp8" (0.27.0-0.30.0 also some "quark") with a deepseek_v4
  (from 0.30.0 in deepseek_v41: also deepseek_v4_text, deepseek_v41,
  deepseek_v41_text) model type, or ``--quantization deepseek_v4_fp8``;
* ``HummingConfig`` (humming.py): ``--quantization humming``, whatever the
  checkpoint.

Only AutoGPTQConfig, AutoAWQConfig, MoeWNA16Config, HummingConfig and
DeepseekV4FP8Config read ``--quantization`` at all; INC, ModelOpt,
GptOssMxfp4 and DeepseekV4FP8 (by model type) claim their checkpoints
whatever it says, even a value that is no method.  The only value outside
``QUANTIZATION_METHODS`` an override names is "marlin".

Per release, two things are generated (``VLLM_FACTS``): the members of the
``QuantizationMethods`` Literal, each a line of
vllm/model_executor/layers/quantization/__init__.py (their order is the
order of those lines, which is how vLLM prints the list), and where the two
overrides that read ``--quantization`` are defined.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import TYPE_CHECKING

from ..knowledge import validators
from ..knowledge.validators import Site, VllmCheck
from .flags import value_of, written
from .model import model_config, text_config

if TYPE_CHECKING:  # pragma: no cover
    from .view import View

_QUANT = "vllm/model_executor/layers/quantization"

# Every name a ``QuantizationMethods`` Literal of a release servelint knows
# has held; which a release has, and in which order, is generated.
_METHOD_CANDIDATES = (
    "awq", "auto_awq", "fp8", "fbgemm_fp8", "fp_quant", "modelopt", "modelopt_fp4", "modelopt_mxfp8",
    "modelopt_mixed", "auto_gptq", "gptq", "gptq_marlin", "awq_marlin", "humming", "compressed-tensors",
    "bitsandbytes", "experts_int8", "quark", "moe_wna16", "torchao", "inc", "mxfp4", "gpt_oss_mxfp4",
    "deepseek_v4_fp8", "online", "fp8_per_tensor", "fp8_per_block", "fp8_per_channel",
    "int8_per_channel_weight_only", "nvfp4_per_token", "mxfp8",
)
METHOD_FACTS = {
    m: VllmCheck(f"quantization.method.{m}", f'"{m}",', f"{_QUANT}/__init__.py", code=True)
    for m in _METHOD_CANDIDATES
}

# The ``--quantization`` values (lower-cased) that the override of a
# checkpoint's quant_method accepts besides none at all: the
# ``is_valid_user_quant`` tuple of AutoGPTQConfig / AutoAWQConfig
# .override_quantization_method, the same in every release 0.25.0-0.33.0
# (tests/conformance/test_quant_overrides.py checks them against the source).
OVERRIDE_USER_VALUES: dict[str, frozenset[str]] = {
    "gptq": frozenset({"gptq", "gptq_marlin", "auto_gptq", "marlin"}),
    "awq": frozenset({"awq", "awq_marlin", "auto_awq", "marlin"}),
}
OVERRIDE_FACTS = {
    "gptq": VllmCheck("quantization.override.gptq", "def override_quantization_method(", f"{_QUANT}/auto_gptq.py",
                      code=True),
    "awq": VllmCheck("quantization.override.awq", "def override_quantization_method(", f"{_QUANT}/auto_awq.py",
                     code=True),
}
# AutoAWQConfig never claims on a CPU platform.
NOT_ON_CPU = frozenset({"awq"})

VLLM_FACTS = tuple(METHOD_FACTS.values()) + tuple(OVERRIDE_FACTS.values())

# --quantization values some override accepts for a checkpoint of this
# quant_method: the table above, and moe_wna16 (MoeWNA16Config, for some
# gptq/awq shapes and GPUs).
_CLAIMED_WITH = {y: values | {"moe_wna16"} for y, values in OVERRIDE_USER_VALUES.items()}


def methods(version: str) -> list[str]:
    """``QUANTIZATION_METHODS`` of ``version``, in vLLM's order (a new list:
    vLLM's message prints it as a Python list)."""
    return list(_methods(version))


@lru_cache(maxsize=32)
def _methods(version: str) -> tuple[str, ...]:
    found = []
    for method, fact in METHOD_FACTS.items():
        site = validators.site(fact.key, version)
        if site is not None:
            found.append((site.line, method))
    return tuple(method for _, method in sorted(found))


def override_site(method: str, version: str) -> Site | None:
    """Where ``version`` defines the override of checkpoints of ``method``
    that reads ``--quantization`` (AutoGPTQConfig, AutoAWQConfig)."""
    return validators.site(OVERRIDE_FACTS[method].key, version)


class CheckpointQuant:
    """The checkpoint's quantization config as ``_normalize_quantization_config``
    leaves it: ``method`` is its lower-cased ``quant_method`` ("" when it
    has none), None for a checkpoint that is not quantized."""

    __slots__ = ("method", "model_type")

    def __init__(self, method: str | None, model_type: str | None) -> None:
        self.method = method
        self.model_type = model_type


def _hf_quant_config_beside(ctx: "View") -> bool:
    """A ModelOpt ``hf_quant_config.json`` next to the model's config.json."""
    model = ctx.model
    return bool(model is not None and model.path
                and os.path.exists(os.path.join(os.path.dirname(model.path), "hf_quant_config.json")))


def checkpoint_quant(ctx: "View") -> CheckpointQuant | None:
    """What the checkpoint declares, or None when servelint cannot be sure.

    ``ModelArchConfigConvertorBase.get_quantization_config`` /
    ``_normalize_quantization_config``
    (vllm/transformers_utils/model_arch_config_convertor.py):
    ``quantization_config``, else ``compression_config``, of the top-level
    config, else of ``text_config``; ``quant_method`` lower-cased,
    "compressed_tensors" spelled "compressed-tensors".  Unknown: no
    config.json (or ``--hf-overrides``), an ``hf_quant_config.json`` beside
    it, a ModelOpt config (rewritten from its ``quant_algo``).
    """
    cfg = model_config(ctx)
    if cfg is None:
        return None
    if _hf_quant_config_beside(ctx):
        return None
    mtype = cfg.get("model_type")
    mtype = mtype if isinstance(mtype, str) else None

    def of(c) -> tuple[bool, object]:
        qc = c.get("quantization_config")
        if qc is None:
            qc = c.get("compression_config")
        return qc is not None, qc

    found, qc = of(cfg)
    if not found:
        text = cfg.get("text_config")
        if text is not None:
            if not hasattr(text, "get"):
                return None
            found, qc = of(text)
    if not found:
        return CheckpointQuant(None, mtype)
    if not hasattr(qc, "get"):
        return None
    producer = qc.get("producer")
    inner = qc.get("quantization")
    if (hasattr(producer, "get") and producer.get("name") == "modelopt") or (
        hasattr(inner, "get") and "modelopt_quant_config" in inner
    ):
        return None
    method = qc.get("quant_method", "")
    if not isinstance(method, str):
        return None
    return CheckpointQuant(method.lower().replace("compressed_tensors", "compressed-tensors"), mtype)


def checkpoint_quantized(ctx: "View") -> bool | None:
    """Whether the checkpoint declares its own quantization (vLLM then
    compares the two first and reports a mismatch instead of an unknown
    method); None without a config.json."""
    cfg = model_config(ctx)
    if cfg is None:
        return None
    text = text_config(ctx) or {}
    if any(c.get(k) for c in (cfg, text) for k in ("quantization_config", "compression_config")):
        return True
    return _hf_quant_config_beside(ctx)


def override_accepts(method: str, user: str, target: str) -> bool:
    """Whether AutoGPTQConfig / AutoAWQConfig claims a checkpoint of this
    quant_method for ``--quantization user`` on this platform."""
    if method in NOT_ON_CPU and target == "cpu":
        return False
    return user in OVERRIDE_USER_VALUES.get(method, ())


def claimed_whatever_user(ck: CheckpointQuant) -> bool:
    """Whether an override that ignores ``--quantization`` may claim the
    checkpoint (so vLLM accepts any value, even one that is no method):
    INCConfig ("auto-round"), the ModelOpt classes (a "modelopt..."
    quant_method; servelint does not check its quant_algo),
    GptOssMxfp4Config (mxfp4 on gpt_oss) and DeepseekV4FP8Config (fp8 or
    deepseek_v4_fp8, 0.27.0-0.30.0 also quark, on a deepseek_v4* model).
    An unknown model type may be either of the last two."""
    y = ck.method or ""
    if y.startswith("modelopt") or y == "auto-round":
        return True
    mtype = ck.model_type
    if y in ("mxfp4", "gpt_oss_mxfp4") and mtype in (None, "gpt_oss"):
        return True
    if y in ("fp8", "deepseek_v4_fp8", "quark") and (mtype is None or mtype.startswith("deepseek_v4")):
        return True
    return False


def accepts_unknown_method(ctx: "View", user: str) -> bool:
    """Whether vLLM may accept ``--quantization user``, a value that is not
    one of the release's methods: an override claims the checkpoint before
    ``_verify_quantization`` checks the method list (module docstring).

    A checkpoint servelint cannot read is given the benefit of the doubt
    only for a value some override names ("marlin"); a ModelOpt
    ``hf_quant_config.json`` is claimed whatever the value."""
    if model_config(ctx) is not None and _hf_quant_config_beside(ctx):
        return True
    ck = checkpoint_quant(ctx)
    if ck is None:
        return any(user in values for values in OVERRIDE_USER_VALUES.values())
    if not ck.method:
        return False
    return override_accepts(ck.method, user, ctx.target) or claimed_whatever_user(ck)


def may_be_claimed(ck: CheckpointQuant, user: str | None) -> bool:
    """Whether some ``override_quantization_method`` might claim the
    checkpoint for this ``--quantization`` (module docstring)."""
    y = ck.method or ""
    if user == "humming" or user == "deepseek_v4_fp8":
        return True
    if ck.model_type is None or ck.model_type.startswith("deepseek_v4"):
        return True
    if y.startswith("modelopt") or y in ("auto-round", "quark"):
        return True
    if y in _CLAIMED_WITH and (user is None or user in _CLAIMED_WITH[y]):
        return True
    if y in ("mxfp4", "gpt_oss_mxfp4") and ck.model_type == "gpt_oss":
        return True
    return False


def quantization_flag(ctx: "View"):
    """The written ``--quantization`` (a ``Derived`` with its flags), or None."""
    q = value_of(ctx.invocation, "quantization")
    if q.how == "flag" and isinstance(q.value, str):
        return q
    return None


def resolved_method(ctx: "View") -> str | None:
    """``ModelConfig.quantization`` after ``_verify_quantization``, when it
    is certain and the launch gets past that check; else None."""
    q = quantization_flag(ctx)
    user = q.value.lower() if q is not None else None
    if q is None and written(ctx.invocation, "quantization"):
        return None
    ck = checkpoint_quant(ctx)
    if ck is None:
        return None
    known = methods(ctx.version)
    if user is not None and user not in known:
        # Only "marlin", which AutoGPTQConfig / AutoAWQConfig take.
        if not ck.method or not override_accepts(ck.method, user, ctx.target):
            return None
    if ck.method is None:
        return user
    y = ck.method
    if y not in known or ck.model_type is None or ck.model_type.startswith("deepseek_v4") or user in (
        "humming", "deepseek_v4_fp8",
    ):
        return None
    if y == "gptq" and (user is None or user in OVERRIDE_USER_VALUES["gptq"]):
        return "auto_gptq"
    if y == "awq" and (user is None or user in OVERRIDE_USER_VALUES["awq"]):
        # AutoAWQConfig claims it on GPUs, not on a CPU platform.
        if ctx.target != "cpu":
            return "auto_awq"
        return "awq" if user in (None, "awq") else None
    if y in ("mxfp4", "gpt_oss_mxfp4"):
        if ck.model_type == "gpt_oss":
            return "gpt_oss_mxfp4"
        return y if user in (None, y) else None
    if y in ("fp8", "fbgemm_fp8", "experts_int8", "fp_quant", "mxfp8") and user in (None, y):
        return y
    return None


# ``get_supported_act_dtypes`` of each method's config class, in the order
# vLLM prints them (``method_to_config`` of
# vllm/model_executor/layers/quantization/__init__.py, identical in
# 0.25.0-0.33.0 for these names; the lists are the same in every release).
# Methods whose class accepts float32 too (compressed-tensors, torchao,
# bitsandbytes) and the online shorthands are left out.
_BF16_HALF = ("bfloat16", "float16")
_HALF_BF16 = ("float16", "bfloat16")
_BF16 = ("bfloat16",)
ACT_DTYPES: dict[str, tuple[str, ...]] = {
    "fp8": _BF16_HALF,  # Fp8Config (fp8.py)
    "deepseek_v4_fp8": _BF16_HALF,  # DeepseekV4FP8Config(Fp8Config)
    "fbgemm_fp8": _BF16_HALF,  # FBGEMMFp8Config
    "experts_int8": _BF16_HALF,  # ExpertsInt8Config
    "modelopt": _BF16_HALF,  # ModelOptFp8Config
    "modelopt_mixed": _BF16_HALF,  # ModelOptMixedPrecisionConfig
    "moe_wna16": _BF16_HALF,  # MoeWNA16Config
    "humming": _BF16_HALF,  # HummingConfig
    "awq": _HALF_BF16, "awq_marlin": _HALF_BF16, "auto_awq": _HALF_BF16,  # AutoAWQConfig
    "gptq": _HALF_BF16, "gptq_marlin": _HALF_BF16, "auto_gptq": _HALF_BF16,  # AutoGPTQConfig
    "inc": _HALF_BF16,  # INCConfig
    "quark": _HALF_BF16,  # QuarkConfig
    "mxfp4": _BF16, "gpt_oss_mxfp4": _BF16,  # Mxfp4Config, GptOssMxfp4Config
    "fp_quant": _BF16,  # FPQuantConfig
    "modelopt_mxfp8": _BF16, "mxfp8": _BF16,  # ModelOptMxFp8Config
}
