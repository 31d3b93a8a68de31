"""What the ``PoolerConfig`` rules share: `--pooler-config` as
``PoolerConfig.__post_init__`` sees it."""

from __future__ import annotations

from ...derive.flags import json_keys_known, json_of
from ..base import Context

# ``SequencePoolingType`` and ``TokenPoolingType`` (vllm/config/pooler.py,
# the same in 0.27.0-0.33.0).
SEQ_POOLING_TYPES = ("CLS", "LAST", "MEAN")
TOK_POOLING_TYPES = ("ALL", "STEP")

# Keys ``reject_removed_parameters`` refuses before any field is validated
# (and the removed task names, vllm/tasks.py).
_REMOVED_TASKS = ("score", "encode")


def pooler_config(ctx: Context):
    """(object, flags) of a written `--pooler-config` that reaches
    ``__post_init__``: every key a field, no removed parameter or task, the
    pooling types valid literals.  None otherwise (pydantic or the "before"
    validator refuse it first; SL103 reports those)."""
    inv = ctx.invocation
    cfg = json_of(inv, "pooler_config")
    if cfg.how != "flag" or not cfg.value or not json_keys_known(inv, "pooler_config", cfg.value):
        return None
    obj = cfg.value
    if "normalize" in obj or obj.get("task") in _REMOVED_TASKS:
        return None
    if obj.get("pooling_type") not in (None, *SEQ_POOLING_TYPES, *TOK_POOLING_TYPES):
        return None
    if obj.get("seq_pooling_type") not in (None, *SEQ_POOLING_TYPES):
        return None
    if obj.get("tok_pooling_type") not in (None, *TOK_POOLING_TYPES):
        return None
    return obj, cfg.flags
