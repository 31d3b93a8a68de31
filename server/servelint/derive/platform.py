"""What the GPU does with the model's dtype: ``CudaPlatform`` and
``ModelConfig``'s dtype resolution for a GPU of a known compute capability.

vLLM decides the dtype when ``ModelConfig`` is built
(``_get_and_verify_dtype``, vllm/config/model.py) from the platform's
``supported_dtypes`` (vllm/platforms/cuda.py: bfloat16, float16, float32
from capability 8.0; float16 and float32 from 6.0; float32 below), and the
worker checks it on the device (``CudaPlatform.check_if_supports_dtype``,
called from ``Worker.init_device``, vllm/v1/worker/gpu_worker.py).  Both
are the same in 0.25.0-0.33.0 (platforms/cuda.py 0.25.0:230/606,
0.28.0:238/616, 0.30.0:256/668, 0.33.0:257/638; config/model.py
``_resolve_auto_dtype`` 0.25.0:2027, 0.28.0:2212, 0.30.0:2277, 0.33.0:2437).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import FrozenValue
from .flags import value_of, written
from .model import DTYPE_NAMES, arch_facts, float16_unsupported_model_types, model_config, text_config

if TYPE_CHECKING:  # pragma: no cover
    from .view import View

BYTES = {"float16": 2, "bfloat16": 2, "float32": 4}


def supported_dtypes(capability: tuple[int, int]) -> tuple[str, ...]:
    """``CudaPlatform.supported_dtypes`` on a GPU of this capability, in its order."""
    if capability >= (8, 0):
        return ("bfloat16", "float16", "float32")
    if capability >= (6, 0):
        return ("float16", "float32")
    return ("float32",)


class Dtype(FrozenValue):
    """``ModelConfig.dtype`` on one GPU.

    ``value``: the dtype vLLM runs the model in; ``how``: "flag" (a written
    ``--dtype``) or "auto" (resolved from the checkpoint's dtype);
    ``checkpoint``: the checkpoint's dtype (config.json), None when not
    read; ``fallback``: True when ``--dtype auto`` falls back from the
    checkpoint's dtype because the GPU lacks it (vLLM logs a warning).
    """

    __slots__ = _fields = ("value", "how", "checkpoint", "fallback", "flags")

    def __init__(self, value: str, how: str, checkpoint: str | None, fallback: bool, flags: tuple = ()) -> None:
        s = object.__setattr__
        s(self, "value", value)
        s(self, "how", how)
        s(self, "checkpoint", checkpoint)
        s(self, "fallback", fallback)
        s(self, "flags", flags)


def checkpoint_dtype(ctx: "View") -> str | None:
    """The checkpoint's dtype: config.json ``dtype``/``torch_dtype``, else
    its text config's (``ModelArchConfigConvertorBase.get_torch_dtype``,
    transformers_utils/model_arch_config_convertor.py 0.33.0:201).  None
    when config.json does not say (vLLM then reads the safetensors)."""
    cfg = model_config(ctx)
    if cfg is None:
        return None
    text = text_config(ctx) or {}
    for c in (cfg, text):
        for k in ("dtype", "torch_dtype"):
            raw = c.get(k)
            if isinstance(raw, str) and raw in BYTES:
                return raw
    return None


def float16_unsupported(ctx: "View") -> bool | None:
    """Whether the model type refuses float16 (``_is_valid_dtype``, the
    release's generated ``_FLOAT16_NOT_SUPPORTED_MODELS``); it reads the
    top-level config's ``model_type`` (``config.model_type``)."""
    cfg = model_config(ctx)
    if cfg is None:
        return None
    return cfg.get("model_type") in float16_unsupported_model_types(ctx.version)


def dtype_on(ctx: "View", capability: tuple[int, int]) -> Dtype | None:
    """``ModelConfig.dtype`` for this launch on a GPU of ``capability``, or
    None when servelint cannot tell.

    A written ``--dtype`` other than ``auto`` decides.  ``auto``
    (``_resolve_auto_dtype``): the platform's supported dtypes, less float16
    for the model types that refuse it; a float32 checkpoint is downcast to
    the first of them (float16 for a pooling model when it is one); a
    checkpoint dtype the GPU has is kept; otherwise the first supported one,
    with vLLM's warning "Your device ... doesn't support torch.bfloat16.
    Falling back to torch.float16 for compatibility."
    """
    d = value_of(ctx.invocation, "dtype")
    if not d.known or not isinstance(d.value, str):
        return None
    name = d.value.lower()
    if name != "auto":
        value = DTYPE_NAMES.get(name)
        return None if value is None else Dtype(value, "flag", checkpoint_dtype(ctx), False, d.flags)
    ck = checkpoint_dtype(ctx)
    no_fp16 = float16_unsupported(ctx)
    arch = arch_facts(ctx)
    if ck is None or no_fp16 is None or arch is None:
        return None
    if written(ctx.invocation, "runner") or written(ctx.invocation, "convert"):
        return None  # is_pooling_model follows them
    supported = [t for t in supported_dtypes(capability) if not (no_fp16 and t == "float16")]
    if not supported:
        return None
    pooling = bool(arch.is_pooling_model)
    preferred = "float16" if pooling and "float16" in supported else supported[0]
    if ck == "float32":
        return Dtype(preferred, "auto", ck, False, d.flags)
    if ck in supported:
        return Dtype(ck, "auto", ck, False, d.flags)
    return Dtype(preferred, "auto", ck, True, d.flags)


# -- The attention backend names of each release ---------------------------------

def attention_backend_names(version: str) -> "tuple[frozenset, frozenset] | None":
    """The ``AttentionBackendEnum`` member names of ``version`` and those
    ``AttentionConfig.__post_init__`` resets to automatic selection (the
    MiniMax-M3 MSA aliases), from the generated table
    (``knowledge/data/config_names.json``, by tools/knowledge/config_names.py);
    None for a release it lacks."""
    from ..knowledge import config_names

    backends = config_names.names("attention_backends", version)
    if backends is None:
        return None
    return frozenset(backends), frozenset(config_names.names("attention_backends_reset_to_auto", version) or ())
