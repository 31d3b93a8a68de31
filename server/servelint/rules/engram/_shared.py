"""What the Engram rules share: `--engram-config` as written and whether
the model has n-gram embedding layers."""

from __future__ import annotations

from ...derive.flags import json_keys_known, json_of
from ...derive.model import text_config
from ..base import Context

# _NGRAM_LAYER_FIELDS (vllm/config/engram.py, 0.32.0-0.33.0): architecture →
# the hf_text_config field naming its n-gram layers.
NGRAM_LAYER_FIELDS = {
    "DeepseekV41ForCausalLM": "engram_layer_ids",
    "Qwen4ExpForCausalLM": "ple_layer_ids",
    "Qwen4ExpForConditionalGeneration": "ple_layer_ids",
}


def engram_config(ctx: Context):
    """The written `--engram-config` object (a Derived) when every key is a
    field of ``EngramConfig``; None when not written, ``null`` or not known."""
    inv = ctx.invocation
    if not inv.flags_for("engram_config"):
        return None
    cfg = json_of(inv, "engram_config")
    if not cfg.known or cfg.how != "flag" or not json_keys_known(inv, "engram_config", cfg.value):
        return None
    if not all(isinstance(v, bool) or v is None for v in cfg.value.values()):
        return None  # pydantic refuses a non-boolean first
    from ...values import effective

    if effective(inv, "engram_config") is None:
        return None  # "null": no EngramConfig
    return cfg


def has_engram_layers(ctx: Context) -> bool | None:
    """``model_has_engram_layers``: None when the model is not known."""
    arch = ctx.architecture
    if ctx.model is None or ctx.model.config is None or not arch:
        return None
    if ctx.model.inferred:
        return None
    field = NGRAM_LAYER_FIELDS.get(arch)
    if field is None:
        return False
    text = text_config(ctx) or {}
    return bool(text.get(field))


def storage_problem(ctx: Context, obj: dict) -> str | None:
    """Which of ``EngramConfig._validate_shared_memory``'s checks the object
    fails ("shared_memory", "thp"), or None (passes, or not known).

    Defaults: ``dp_shared_memory`` None (False in 0.30.0), ``use_thp``
    False (from 0.31.0), ``cpu_offload`` True (0.30.0: ``VLLM_PLE_CPU_OFFLOAD``,
    "1" unless the launch sets it)."""
    cpu = obj.get("cpu_offload")
    if cpu is None:
        cpu = True
        if not ctx.at_least("0.31.0"):
            var = ctx.invocation.env.get("VLLM_PLE_CPU_OFFLOAD")
            if var is not None:
                if var.value is None or not var.value.strip().lstrip("-").isdecimal():
                    return None  # only known at run time (or int() fails first)
                cpu = bool(int(var.value))
    shared = obj.get("dp_shared_memory")
    thp = obj.get("use_thp", False) if ctx.at_least("0.31.0") else False
    if shared and not cpu:
        return "shared_memory"
    if thp and (not cpu or shared):
        return "thp"
    return None
