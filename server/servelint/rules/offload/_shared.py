"""What the offload rules share: whether prefetch offloading is on, as
``OffloadConfig.validate_offload_config`` decides it."""

from __future__ import annotations

from ...derive.flags import int_of, value_of
from ..base import Context


def prefetch_group(ctx: Context):
    """``(group_size, backend)`` Derived values when prefetch offloading is
    on (``offload_backend == "prefetch" or offload_group_size > 0``), else
    None (off, or not known from the file)."""
    inv = ctx.invocation
    backend = value_of(inv, "offload_backend")
    size = int_of(inv, "offload_group_size")
    if size.how == "unknown":
        return None
    if size.value > 0 or (backend.how == "flag" and backend.value == "prefetch"):
        return size, backend
    return None
