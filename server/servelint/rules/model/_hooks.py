"""What the per-architecture config hook rules share: which class of
``MODELS_CONFIG_MAP`` (vllm/model_executor/models/config.py) vLLM calls
``verify_and_update_config`` of for the served model, and the facts of its
config.json those hooks read.

``VllmConfig.try_verify_and_update_config`` looks the model's architecture
up in the map (vllm/config/vllm.py, 0.33.0 :2735) and calls the class's
hook early in ``VllmConfig.__post_init__``.  Which architecture maps to
which class in each release is the generated architecture table's
``models_config_map`` (``ArchFacts``, tools/knowledge/generate.py).
"""

from __future__ import annotations

from ...derive.base import is_int
from ...derive.flags import json_of, value_of, written
from ...derive.model import text_config
from ...derive.speculative import proposer
from ..base import Context
from ._shared import registry_arch

# ``Qwen4ExpForConditionalGenerationConfig.verify_and_update_config`` and the
# two classes that call it first (0.29.0-0.33.0).
QWEN4EXP_HOOKS = frozenset({
    "Qwen4ExpForConditionalGenerationConfig", "Qwen4ExpForCausalLMConfig", "Qwen4ExpMTPConfig",
})


def hook_class(ctx: Context) -> str | None:
    """The ``MODELS_CONFIG_MAP`` class of the model's one architecture in
    the launch's release ("" when the architecture has none), or None when
    servelint cannot tell (see ``registry_arch``)."""
    arch = registry_arch(ctx)
    if arch is None:
        return None
    return arch.models_config_map or ""


def qwen4exp_text(ctx: Context) -> dict | None:
    """``hf_text_config`` of a model the Qwen4Exp hook runs for, or None."""
    if hook_class(ctx) not in QWEN4EXP_HOOKS:
        return None
    text = text_config(ctx)
    return text if isinstance(text, dict) or hasattr(text, "get") else None


def uses_ple(text) -> bool | None:
    """``bool(text_config.ple_layer_ids)``: Transformers' ``Qwen4ExpTextConfig``
    makes a missing or null list ``[]``; None when the value is no list."""
    ids = text.get("ple_layer_ids")
    if ids is None:
        return False
    if not isinstance(ids, list):
        return None
    return bool(ids)


def uses_qsa(text) -> bool | None:
    """``getattr(text_config, "indexer_n_heads", None) is not None``."""
    heads = text.get("indexer_n_heads")
    if heads is None:
        return False
    return True if is_int(heads) else None


def spec_method(ctx: Context):
    """The speculative method ``SpeculativeConfig`` ends with and the flag
    that wrote the speculative config, or None (no speculative decoding,
    one vLLM refuses before, one that builds nothing: no model and no
    token count, or a method servelint cannot tell)."""
    p = proposer(ctx)
    if p is None or p.branch in (None, "none") or not isinstance(p.method, str) or not p.args.flags:
        return None
    return p.method, p.args.anchor


def pipeline_flag(ctx: Context):
    """The known ``--pipeline-parallel-size`` and its last flag, or None
    (unknown, or the default)."""
    v = value_of(ctx.invocation, "pipeline_parallel_size")
    if not v.known or not is_int(v.value) or not v.flags:
        return None
    return v.value, v.flags[-1]


class _Unknown:
    pass


UNKNOWN_BACKEND = _Unknown()


def attention_backend(ctx: Context):
    """The attention backend the launch writes, as ``AttentionConfig``
    parses it: ``(NAME, flag)`` with the name upper-cased, ``(None, None)``
    when none is written (or ``auto``: automatic selection), and
    ``UNKNOWN_BACKEND`` when servelint cannot tell or vLLM refuses first
    (both ``--attention-backend`` and ``--attention-config`` ``backend``:
    "mutually exclusive", SL580)."""
    inv = ctx.invocation
    found = []
    if written(inv, "attention_backend"):
        b = value_of(inv, "attention_backend")
        if not b.known or not b.flags:
            return UNKNOWN_BACKEND
        if b.value is not None:
            found.append((b.value, b.flags[-1]))
    if written(inv, "attention_config"):
        cfg = json_of(inv, "attention_config")
        if not cfg.known:
            return UNKNOWN_BACKEND
        value = cfg.value.get("backend")
        if value is not None:
            if not cfg.flags:
                return UNKNOWN_BACKEND
            found.append((value, cfg.flags[-1]))
    if len(found) > 1:
        return UNKNOWN_BACKEND
    if not found:
        return None, None
    value, flag = found[0]
    if not isinstance(value, str):
        return UNKNOWN_BACKEND
    if value.lower() == "auto":
        return None, None
    return value.upper(), flag
