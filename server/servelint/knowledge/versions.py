"""vLLM release numbers: ordering them."""

from __future__ import annotations

from functools import lru_cache


# Cached: the engine asks every rule whether it applies to every launch.
@lru_cache(maxsize=256)
def version_key(version: str) -> tuple[int, ...]:
    """``"0.10.1.1"`` → ``(0, 10, 1, 1)``; ``"0.6.3.post1"`` → ``(0, 6, 3, 1)``;
    at least three parts, so ``"0.28"`` sorts as ``0.28.0``."""
    parts = []
    for p in version.split("."):
        digits = "".join(ch for ch in p if ch.isascii() and ch.isdigit())
        parts.append(int(digits) if digits else 0)
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts)
