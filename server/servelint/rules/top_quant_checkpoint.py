"""A quantized checkpoint and the launch's `--quantization` / `--dtype`.

``ModelConfig._verify_quantization`` (vllm/config/model.py) reads the
checkpoint's quantization config (config.json ``quantization_config``, else
``compression_config``, else the same in ``text_config``), lets every
quantization method's ``override_quantization_method`` claim it, and stops
when the method left differs from ``--quantization``.  ``VllmConfig`` then
builds the method's config class and refuses a model dtype the class does
not list in ``get_supported_act_dtypes``.

The override classmethods (the same in 0.25.0-0.33.0 except where noted;
file:line of each release's unpacked wheel, ``vllm/model_executor/layers/
quantization/...``) and what makes one claim a checkpoint:

* ``AutoGPTQConfig`` (auto_gptq.py 0.25.0-0.29.0:219, 0.30.0:216,
  0.31.0-0.33.0:214): ``quant_method`` "gptq" and ``--quantization`` unset
  or one of gptq, gptq_marlin, auto_gptq, marlin (``OVERRIDE_USER_VALUES``);
* ``AutoAWQConfig`` (auto_awq.py 0.25.0-0.30.0:260, 0.31.0-0.33.0:263):
  "awq" and unset/awq/awq_marlin/auto_awq/marlin, never on a CPU platform
  (``current_platform.is_cpu()``, auto_awq.py 0.25.0-0.30.0:265,
  0.31.0-0.33.0:268);
* ``MoeWNA16Config`` (moe_wna16.py 0.25.0/0.26.0:125, 0.27.0-0.29.0:138,
  0.30.0-0.33.0:145): ``--quantization moe_wna16`` on a gptq or awq
  checkpoint of some shapes and GPUs;
* ``INCConfig`` (inc/inc.py 0.25.0/0.26.0:185, 0.27.x:254, 0.28.0:253,
  0.29.0:360, 0.30.0-0.33.0:361): "auto-round";
* the four ModelOpt classes (modelopt.py, e.g. 0.25.0:415/1064/1722/2321,
  0.33.0:453/776/1236/1658): a ``quant_method`` starting with "modelopt"
  and its ``quant_algo``;
* ``GptOssMxfp4Config`` (mxfp4.py 0.25.0:115, 0.33.0:129): "mxfp4" or
  "gpt_oss_mxfp4" with ``model_type`` "gpt_oss";
* ``DeepseekV4FP8Config`` (vllm/models/deepseek_v4/quant_config.py
  0.25.0/0.26.0:121, 0.27.0-0.31.0:135, 0.32.0:140, 0.33.0:171; on CUDA
  from 0.30.0 also models/deepseek_v41/quant_config.py 0.30.0/0.31.0:139,
  0.32.0/0.33.0:164): "fp8" or "deepseek_v4_fp8" (0.27.0-0.30.0 also some
  "quark") with a deepseek_v4 (from 0.30.0 in deepseek_v41: also
  deepseek_v4_text, deepseek_v41, deepseek_v41_text) model type, or
  ``--quantization deepseek_v4_fp8``;
* ``HummingConfig`` (humming.py 0.25.0-0.27.1:197, 0.28.0-0.30.0:175,
  0.31.0-0.33.0:179): ``--quantization humming``, whatever the checkpoint.

Only AutoGPTQConfig, AutoAWQConfig, MoeWNA16Config, HummingConfig and
DeepseekV4FP8Config read ``--quantization`` at all; INC, ModelOpt,
GptOssMxfp4 and DeepseekV4FP8 (by model type) claim their checkpoints
whatever it says, even a value that is no method. The only value outside
``QUANTIZATION_METHODS`` an override names is "marlin".

servelint reports only where none of these can claim the checkpoint.
"""

from __future__ import annotations

import os
from typing import Iterable

from ..diagnostics import Applicability, Category, Severity
from ..knowledge.validators import VllmCheck
from . import top_facts as tf
from . import vllm_state as st
from .base import Context, Finding, Rule, vllm_source
from .top_quantization import methods

_R = ("0.25.0", "0.26.0", "0.27.0", "0.27.1", "0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0")


# The checkpoint's quant_method -> the --quantization values (lower-cased;
# vLLM compares them as ``validate_quantization_before`` left them) its
# override accepts besides none at all: the ``is_valid_user_quant`` tuple of
# AutoGPTQConfig / AutoAWQConfig.override_quantization_method, the same in
# every release 0.25.0-0.33.0 (auto_gptq.py and auto_awq.py, the def lines
# below).  AutoAWQConfig never claims on a CPU platform.
OVERRIDE_USER_VALUES: dict[str, frozenset[str]] = {
    "gptq": frozenset({"gptq", "gptq_marlin", "auto_gptq", "marlin"}),
    "awq": frozenset({"awq", "awq_marlin", "auto_awq", "marlin"}),
}
OVERRIDE_SOURCE = {
    "gptq": ("model_executor/layers/quantization/auto_gptq.py",
             dict(zip(_R, (219, 219, 219, 219, 219, 219, 216, 214, 214, 214)))),
    "awq": ("model_executor/layers/quantization/auto_awq.py",
            dict(zip(_R, (260, 260, 260, 260, 260, 260, 260, 263, 263, 263)))),
}
_NOT_ON_CPU = frozenset({"awq"})

# --quantization values some override accepts for a checkpoint of this
# quant_method (see the module docstring): the table above, and moe_wna16
# (MoeWNA16Config, for some gptq/awq shapes and GPUs).
_CLAIMED_WITH = {y: values | {"moe_wna16"} for y, values in OVERRIDE_USER_VALUES.items()}


def override_accepts(method: str, user: str, target: str) -> bool:
    """Whether AutoGPTQConfig / AutoAWQConfig claims a checkpoint of this
    quant_method for ``--quantization user`` on this platform."""
    if method in _NOT_ON_CPU and target == "cpu":
        return False
    return user in OVERRIDE_USER_VALUES.get(method, ())


def claimed_whatever_user(ck: "CheckpointQuant") -> bool:
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


def accepts_unknown_method(ctx: Context, user: str) -> bool:
    """Whether vLLM may accept ``--quantization user``, a value that is not
    one of the release's methods: an override claims the checkpoint before
    ``_verify_quantization`` checks the method list (module docstring).

    A checkpoint servelint cannot read is given the benefit of the doubt
    only for a value some override names ("marlin"); a ModelOpt
    ``hf_quant_config.json`` is claimed whatever the value."""
    model = ctx.model
    if model is not None and model.path and tf.model_config(ctx) is not None:
        if os.path.exists(os.path.join(os.path.dirname(model.path), "hf_quant_config.json")):
            return True
    ck = checkpoint_quant(ctx)
    if ck is None:
        return any(user in values for values in OVERRIDE_USER_VALUES.values())
    if not ck.method:
        return False
    return override_accepts(ck.method, user, ctx.target) or claimed_whatever_user(ck)

# ``get_supported_act_dtypes`` of each method's config class, in the order
# vLLM prints them (``method_to_config`` of
# model_executor/layers/quantization/__init__.py, identical in 0.25.0-0.33.0
# for these names; the lists are the same in every release).  Methods whose
# class accepts float32 too (compressed-tensors, torchao, bitsandbytes) and
# the online shorthands are left out.
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

# _STR_DTYPE_TO_TORCH_DTYPE (config/model.py).
_DTYPES = {"half": "float16", "float16": "float16", "float": "float32", "float32": "float32", "bfloat16": "bfloat16"}


class CheckpointQuant:
    """The checkpoint's quantization config as ``_normalize_quantization_config``
    leaves it: ``method`` is its lower-cased ``quant_method`` ("" when it
    has none), None for a checkpoint that is not quantized."""

    __slots__ = ("method", "model_type")

    def __init__(self, method: str | None, model_type: str | None) -> None:
        self.method = method
        self.model_type = model_type


def checkpoint_quant(ctx: Context) -> CheckpointQuant | None:
    """What the checkpoint declares, or None when servelint cannot be sure.

    ``ModelArchConfigConvertorBase.get_quantization_config`` /
    ``_normalize_quantization_config`` (transformers_utils/
    model_arch_config_convertor.py 0.25.0:209/246, 0.28.0:260/302,
    0.33.0:241/285): ``quantization_config``, else ``compression_config``,
    of the top-level config, else of ``text_config``; ``quant_method``
    lower-cased, "compressed_tensors" spelled "compressed-tensors".  Unknown:
    no config.json (or ``--hf-overrides``), an ``hf_quant_config.json``
    beside it, a ModelOpt config (rewritten from its ``quant_algo``).
    """
    cfg = tf.model_config(ctx)
    if cfg is None:
        return None
    model = ctx.model
    if model is not None and model.path:
        if os.path.exists(os.path.join(os.path.dirname(model.path), "hf_quant_config.json")):
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


def _may_be_claimed(ck: CheckpointQuant, user: str | None) -> bool:
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


def _quant_flag(ctx: Context):
    q = st.value_of(ctx.invocation, "quantization")
    if q.how == "flag" and isinstance(q.value, str):
        return q
    return None


class QuantizationMismatchCheckpoint(Rule):
    """`--quantization` that contradicts the checkpoint's own quantization.

    ## What it does
    Reports `--quantization X` when the model's config.json declares
    another method (`quantization_config.quant_method`, or a
    `compression_config` for compressed-tensors) and no vLLM override maps
    the pair to one method. Accepted pairs stay silent: a GPTQ checkpoint
    with `gptq`, `gptq_marlin` or `auto_gptq`; an AWQ checkpoint with `awq`,
    `awq_marlin` or `auto_awq` (on GPUs); `moe_wna16`, `humming` and
    `deepseek_v4_fp8`, which may claim a checkpoint; and ModelOpt,
    auto-round and quark checkpoints, gpt-oss MXFP4 and DeepSeek V4 models.
    A value that is not a method at all is `quantization-unknown`.

    ## Why
    vLLM reads the method from the checkpoint and stops while building its
    config: "Quantization method specified in the model config (fp8) does
    not match the quantization method specified in the `quantization`
    argument (gptq)."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B-FP8 --quantization gptq
    ```

    ## Fix
    Drop `--quantization` (vLLM detects the checkpoint's method), or serve
    a checkpoint quantized with the method you want.


    ## Fix safety
    Unsafe: removing `--quantization` lets vLLM use the checkpoint's own method,
    which may not be the one you wanted.
    ## vLLM source
    `ModelConfig._verify_quantization`, vllm/config/model.py (the message):
    0.25.0:1091, 0.26.0:1109, 0.27.x:1194, 0.28.0:1274, 0.29.0:1320,
    0.30.0:1333, 0.31.0:1411, 0.32.0:1445, 0.33.0:1458 (the method is
    identical in every release); the overrides it consults are listed in
    rules/top_quant_checkpoint.py with file:line per release. Checked against
    vLLM's own verdicts (tests/conformance/top25, cases `qmis_*`).
    """

    code = "SL325"
    fixes = frozenset({Applicability.UNSAFE})
    vllm_checks = (VllmCheck("quant_mismatch", "Quantization method specified in the model config ", "vllm/config/model.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "quantization-mismatch-checkpoint"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--quantization"
    reads = frozenset({"quantization", "model", "hf_overrides"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        q = _quant_flag(ctx)
        if q is None:
            return
        user = q.value.lower()
        if user not in methods(ctx.version):
            return  # quantization-unknown
        ck = checkpoint_quant(ctx)
        if ck is None or ck.method is None or ck.method == "" or ck.method == user:
            return
        if _may_be_claimed(ck, user):
            return
        message = (
            f"Quantization method specified in the model config ({ck.method}) does not match the "
            f"quantization method specified in the `quantization` argument ({user})."
        )
        flag = q.flags[-1]
        rel = [r for r in [tf.model_note(ctx)] if r is not None]
        fix = tf.removal_fix(ctx, list(st.written(ctx.invocation, "quantization")), "Remove --quantization")
        yield Finding(
            flag.name_span,
            f"the checkpoint is quantized with {ck.method}, not {user}: vLLM refuses "
            f"--quantization {user} for it (drop the flag: vLLM reads the method from the checkpoint)",
            flag=flag.canonical, related=rel, fixes=[fix] if fix else [], vllm_message=message,
            path=tf.path_of(ctx, flag),
            data={"vllm_source": vllm_source(ctx, "quant_mismatch")},
        )


def final_method(ctx: Context) -> str | None:
    """``ModelConfig.quantization`` after ``_verify_quantization``, when it
    is certain and the launch gets past that check; else None."""
    q = _quant_flag(ctx)
    user = q.value.lower() if q is not None else None
    if q is None and st.written(ctx.invocation, "quantization"):
        return None
    ck = checkpoint_quant(ctx)
    if ck is None:
        return None
    if user is not None and user not in methods(ctx.version):
        # Only "marlin", which AutoGPTQConfig / AutoAWQConfig take.
        if not ck.method or not override_accepts(ck.method, user, ctx.target):
            return None
    if ck.method is None:
        return user
    y = ck.method
    if y not in methods(ctx.version) or ck.model_type is None or ck.model_type.startswith("deepseek_v4") or user in ("humming", "deepseek_v4_fp8"):
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


class QuantActDtypeUnsupported(Rule):
    """`--dtype` that the quantization method cannot run activations in.

    ## What it does
    Reports a written `--dtype` (`float32`, `float16`/`half`, `bfloat16`)
    that the launch's quantization method does not support: `--dtype
    float32` with fp8, GPTQ, AWQ, FBGEMM fp8, ModelOpt, MXFP4...
    checkpoints or `--quantization fp8`; `--dtype float16` with MXFP4
    (gpt-oss), fp_quant and MXFP8, which run in bfloat16 only. The method
    is `--quantization`, or the checkpoint's own one (GPTQ and AWQ
    checkpoints run as `auto_gptq` / `auto_awq`). Silent for `--dtype auto`,
    for methods that also take float32 (compressed-tensors, torchao,
    bitsandbytes), the online shorthands (`fp8_per_tensor`...), and models
    whose config hooks may change the dtype.

    ## Why
    vLLM stops while building its config: "torch.float32 is not supported
    for quantization method fp8. Supported dtypes: [torch.bfloat16,
    torch.float16]".

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B-FP8 --dtype float32
    ```

    ## Fix
    Use `--dtype auto` or one of the listed dtypes.

    ## vLLM source
    `VllmConfig._get_quantization_config`, vllm/config/vllm.py (the
    message): 0.25.0:646, 0.26.0:694, 0.27.x:730, 0.28.0:784, 0.29.0:800,
    0.30.0:846, 0.31.0:935, 0.32.0:910, 0.33.0:940; each method's
    `get_supported_act_dtypes` (model_executor/layers/quantization/, the same
    lists in every release). On a GPU below the method's minimum compute
    capability vLLM reports that first. Checked against vLLM's own verdicts
    (tests/conformance/top25, cases `qact_*`).
    """

    code = "SL326"
    vllm_checks = (VllmCheck("quant_act_dtype", "is not supported for quantization ", "vllm/config/vllm.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "quant-act-dtype-unsupported"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--dtype"
    partners = ("--quantization",)
    reads = frozenset({"dtype", "quantization", "model", "hf_overrides"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        dtype = st.value_of(inv, "dtype")
        if dtype.how != "flag" or not isinstance(dtype.value, str):
            return
        name = _DTYPES.get(dtype.value.lower())
        if name is None:
            return
        arch = st.arch_facts(ctx)
        if arch is None or arch.models_config_map:
            return
        method = final_method(ctx)
        if method is None or method not in ACT_DTYPES:
            return
        supported = ACT_DTYPES[method]
        if name in supported:
            return
        listing = ", ".join(f"torch.{d}" for d in supported)
        message = (
            f"torch.{name} is not supported for quantization method {method}. "
            f"Supported dtypes: [{listing}]"
        )
        q = _quant_flag(ctx)
        how = f"--quantization {q.value}" if q is not None else "the checkpoint's quantization_config"
        rel = tf.related(ctx, q.flags[-1:], "quantization method set by {flag}") if q is not None else [
            r for r in [tf.model_note(ctx)] if r is not None
        ]
        flag = dtype.flags[-1]
        yield Finding(
            flag.name_span,
            f"{method} quantization runs activations in {' or '.join(supported)}, not {name} "
            f"(method from {how})",
            flag=flag.canonical, related=rel, vllm_message=message, path=tf.path_of(ctx, flag),
            data={"vllm_source": vllm_source(ctx, "quant_act_dtype")},
        )
