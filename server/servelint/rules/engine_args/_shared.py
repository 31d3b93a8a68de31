"""What the engine-arguments rules share: the key of a JSON option a flag
also sets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...derive.flags import json_of
from ..base import Context

if TYPE_CHECKING:  # pragma: no cover
    from ...argv import Flag


_MISSING = object()


def json_key(ctx: Context, dest: str, *path: str) -> "tuple[Flag, object] | None":
    """The value at ``path`` in JSON option ``dest`` as written (dotted keys
    merged) and the flag that wrote it, when the file shows it; None when the
    key is not written or not known."""
    flags = ctx.invocation.flags_for(dest)
    if not flags:
        return None
    cfg = json_of(ctx.invocation, dest)
    if not cfg.known:
        return None
    node = cfg.value
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    flag = next((f for f in reversed(flags) if f.dotted_key is not None and f.dotted_key.split(".")[: len(path)] == list(path)),
                flags[-1])
    return flag, node
