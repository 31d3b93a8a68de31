"""What the watermarking rules share: `--watermark-config` as
``WatermarkConfig`` receives it."""

from __future__ import annotations

from ...derive.base import is_int
from ...derive.flags import json_keys_known, json_of
from ..base import Context


def watermark_config(ctx: Context):
    """The merged `--watermark-config` object (a Derived) when written, every
    key a field of ``WatermarkConfig`` and ``key`` an integer of at least 0
    (pydantic refuses the rest before the model validator runs); else None."""
    inv = ctx.invocation
    if not inv.flags_for("watermark_config"):
        return None
    cfg = json_of(inv, "watermark_config")
    if not cfg.known or not cfg.value or not json_keys_known(inv, "watermark_config", cfg.value):
        return None
    key = cfg.value.get("key")
    if not is_int(key) or key < 0:
        return None
    return cfg
