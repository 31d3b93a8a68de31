"""What `vllm serve` (``ServeSubcommand.cmd``, vllm/entrypoints/cli/serve.py)
decides from its arguments before it builds the engine: the data-parallel
load-balancing mode it detects and the number of API server processes.

Read the same way in 0.25.0-0.33.0 (the code of ``cmd`` kept its shape; only
how it finds the Rust frontend changed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import FrozenValue, is_int
from .flags import file_value, int_or_none, switch

if TYPE_CHECKING:  # pragma: no cover
    from .view import View


class LbModes(FrozenValue):
    """The load-balancing modes ``cmd`` detects, and the dests that set each."""

    __slots__ = _fields = ("external", "hybrid", "multi_port", "external_by", "hybrid_by")

    def __init__(self, external: bool, hybrid: bool, multi_port: bool,
                 external_by: tuple = (), hybrid_by: tuple = ()) -> None:
        s = object.__setattr__
        s(self, "external", external)
        s(self, "hybrid", hybrid)
        s(self, "multi_port", multi_port)
        s(self, "external_by", external_by)
        s(self, "hybrid_by", hybrid_by)

    @property
    def count(self) -> int:
        return int(self.external) + int(self.hybrid) + int(self.multi_port)


def lb_modes(ctx: "View") -> LbModes | None:
    """``is_external_lb``, ``is_hybrid_lb`` and ``is_multi_port`` as ``cmd``
    computes them; None when a flag they read is unknown."""
    inv = ctx.invocation
    dpe = switch(inv, "data_parallel_external_lb")
    dph = switch(inv, "data_parallel_hybrid_lb")
    dpm = switch(inv, "data_parallel_multi_port_external_lb")
    rank_known, rank = int_or_none(inv, "data_parallel_rank")
    start_known, start = int_or_none(inv, "data_parallel_start_rank")
    if None in (dpe, dph, dpm) or not rank_known or not start_known:
        return None
    external_by = tuple(d for d, on in (("data_parallel_external_lb", dpe), ("data_parallel_rank", rank is not None)) if on)
    if not dph and not dpm:
        hybrid, multi = start is not None, False
        hybrid_by = ("data_parallel_start_rank",) if hybrid else ()
    else:
        hybrid, multi = bool(dph), bool(dpm)
        hybrid_by = ("data_parallel_hybrid_lb",) if hybrid else ()
    return LbModes(bool(external_by), hybrid, multi, external_by, hybrid_by)


def rust_frontend_on(ctx: "View") -> bool | None:
    """``envs.VLLM_USE_RUST_FRONTEND`` (``bool(int(value))``, unset is 0);
    None when the launch's value is only known at run time or is not an
    integer (vLLM fails reading it)."""
    var = ctx.invocation.env.get("VLLM_USE_RUST_FRONTEND")
    if var is None:
        return False
    if var.value is None:
        return None
    try:
        return bool(int(var.value))
    except ValueError:
        return None


def api_server_count(ctx: "View") -> int | None:
    """The number of API server processes ``cmd`` settles on before its
    Elastic EP cap: the written `--api-server-count`, else 0 headless, 1 for
    multi-port, external LB or the Rust frontend, the local data-parallel
    size (or 1) for hybrid LB, the data-parallel size otherwise.  None when
    a value it needs is unknown (the Rust frontend's count is 1 whatever
    is written)."""
    inv = ctx.invocation
    known, count = int_or_none(inv, "api_server_count")
    headless = switch(inv, "headless")
    rust = rust_frontend_on(ctx)
    modes = lb_modes(ctx)
    if not known or headless is None or rust is None or modes is None:
        return None
    if headless:
        return count if count is not None and count > 0 else 0
    if count is not None:
        return 1 if rust and count > 1 else count
    if modes.multi_port or modes.external or rust:
        return 1
    if modes.hybrid:
        local_known, local = int_or_none(inv, "data_parallel_size_local")
        return (local or 1) if local_known else None
    dp = file_value(inv, "data_parallel_size")
    return dp.value if is_int(dp.value) else None
