"""``MambaConfig``: the SSU backend and stochastic rounding."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import UNKNOWN, Derived, at_least
from .flags import value_of

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Invocation

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


def stochastic_rounding(inv: "Invocation") -> Derived:
    """``MambaConfig.enable_stochastic_rounding`` (``--enable-mamba-cache-stochastic-rounding``)."""
    if inv.knowledge.by_dest.get("enable_mamba_cache_stochastic_rounding") is None:
        return Derived(False, "default")
    v = value_of(inv, "enable_mamba_cache_stochastic_rounding")
    if not v.known:
        return UNKNOWN
    return Derived(bool(v.value), v.how, "", v.flags)
