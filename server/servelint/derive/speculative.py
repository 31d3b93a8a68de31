"""``SpeculativeConfig`` as ``EngineArgs.create_speculative_config`` builds it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..values import human_readable_int
from .base import FrozenValue
from .flags import config_key, json_of, value_of, written

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Invocation


class Speculation(FrozenValue):
    """``VllmConfig.num_speculative_tokens`` and what set it.

    ``active`` None: servelint cannot tell.  ``tokens`` is the explicit
    ``num_speculative_tokens`` (None when vLLM derives it, e.g. from an MTP
    draft's ``n_predict``; it is then still > 0: the field is ``gt=0``,
    config/speculative.py).
    """

    __slots__ = _fields = ("active", "tokens", "method", "flags")

    def __init__(self, active: bool | None, tokens: int | None = None, method: str | None = None,
                 flags: tuple = ()) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "active", active)
        setattr_(self, "tokens", tokens)
        setattr_(self, "method", method)
        setattr_(self, "flags", flags)


def speculation(inv: "Invocation") -> Speculation:
    """Speculative decoding as ``EngineArgs.create_speculative_config`` builds it.

    ``--speculative-config``/``-sc`` (JSON or dotted keys) plus the shortcuts
    ``--spec-method``, ``--spec-model`` and ``--spec-tokens``, merged into one
    dict (engine/arg_utils.py ``create_speculative_config``: 0.27.1 :1790,
    0.28.0 :1830, 0.33.0 :2100).  No dict: no speculative decoding, and
    ``num_speculative_tokens`` is 0 (config/vllm.py ``num_speculative_tokens``:
    0.27.1 :564, 0.28.0 :574, 0.33.0 :612).
    """
    cfg = json_of(inv, "speculative_config")
    if not cfg.known:
        return Speculation(None)
    merged = dict(cfg.value)
    flags = list(cfg.flags)
    for dest, key in (("spec_method", "method"), ("spec_model", "model"), ("spec_tokens", "num_speculative_tokens")):
        if inv.knowledge.by_dest.get(dest) is None:
            continue
        if not written(inv, dest):
            continue
        v = value_of(inv, dest)
        if v.how == "unknown":
            return Speculation(None)
        merged[key] = v.value
        flags.extend(v.flags)
    merged = {config_key(inv.version, "speculative_config", k): v for k, v in merged.items() if v is not None}
    if not merged:
        return Speculation(False)
    tokens = merged.get("num_speculative_tokens")
    if isinstance(tokens, str):
        try:
            tokens = human_readable_int(tokens)
        except ValueError:
            tokens = None
    if isinstance(tokens, bool) or not isinstance(tokens, int):
        tokens = None
    elif tokens <= 0:
        return Speculation(None)  # SpeculativeConfig rejects it itself
    if "method" not in merged and "model" not in merged:
        return Speculation(None)  # SpeculativeConfig needs one of them
    method = merged.get("method") if isinstance(merged.get("method"), str) else None
    return Speculation(True, tokens, method, tuple(flags))
