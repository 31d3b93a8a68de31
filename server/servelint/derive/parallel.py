"""``ParallelConfig``: the parallel sizes and the all-to-all backend."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import UNKNOWN, Derived, is_int
from .flags import value_of

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Invocation

def pipeline_parallel_size(inv: "Invocation") -> Derived:
    v = value_of(inv, "pipeline_parallel_size")
    if not v.known or not isinstance(v.value, int):
        return UNKNOWN
    return v


def use_batched_dp_moe(inv: "Invocation") -> bool:
    """``ParallelConfig.use_batched_dp_moe`` (config/parallel.py 0.25.0 :659,
    0.33.0 :796): deepep_low_latency or nixl_ep with expert parallelism and
    data parallelism; True also when one of those is not known."""
    backend = value_of(inv, "all2all_backend")
    ep = value_of(inv, "enable_expert_parallel")
    dp = value_of(inv, "data_parallel_size")
    if backend.known and backend.value not in ("deepep_low_latency", "nixl_ep"):
        return False
    if ep.known and not ep.value:
        return False
    if is_int(dp.value) and dp.value <= 1:
        return False
    return True
