"""Transitional: the top-25 families' model and scheduler facts moved to
``servelint.derive``; what is left here are the rules' own helpers (where a
message is raised, findings on a flag, removal fixes), which move to the rule
model next."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..derive import flags as _flags
from ..derive.base import Derived, is_int
from ..derive.flags import json_keys_known
from ..derive.model import (
    EXPERT_KEYS, MAX_LEN_KEYS, MOE_BY_DEFAULT, DerivedLen, MaxLen, derived_max_len, heterogeneous, is_moe,
    max_model_len, model_config, num_attention_heads, text_config,
)
from ..derive.parallel import use_batched_dp_moe as _maybe_batched_dp_moe
from ..derive.scheduler import Batch, batches, chunked_prefill
from ..diagnostics import Applicability, Related
from .base import vllm_source

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Flag
    from .base import Context


def at_least(ctx: "Context", version: str) -> bool:
    return ctx.at_least(version)


def source(ctx: "Context", key: str) -> str:
    return vllm_source(ctx, key)


def path_of(ctx: "Context", flag: "Flag") -> str:
    """The file a flag is written in (the --config file for its keys)."""
    return (flag.word.path if flag.word is not None else None) or ctx.path


def related(ctx: "Context", flags: Iterable["Flag"], message: str) -> list[Related]:
    return [Related(path_of(ctx, f), f.name_span, message.format(flag=f.written)) for f in flags]


def model_note(ctx: "Context") -> Related | None:
    """A note on the model word: the facts come from its config.json."""
    inv = ctx.invocation
    model = ctx.model
    if inv.model is None or model is None or model.config is None:
        return None
    path = inv.model.path or ctx.path
    arch = f" ({model.architecture})" if model.architecture else ""
    return Related(path, inv.model.span, f"facts from this model's config.json{arch}")


def finding(
    ctx: "Context",
    flag: "Flag",
    vllm_message: str | None,
    key: str,
    *,
    message: str | None = None,
    note: str = "",
    related_to: list | None = None,
    severity=None,
    fixes: list | None = None,
):
    """A Finding on ``flag`` whose text is vLLM's, plus servelint's clause."""
    from .base import Finding

    text = message or vllm_message or ""
    if note:
        text = f"{text} ({note})"
    return Finding(
        flag.name_span, text, flag=flag.canonical, severity=severity, related=related_to or [],
        fixes=fixes or [], vllm_message=vllm_message, path=path_of(ctx, flag),
        data={"vllm_source": source(ctx, key)},
    )


def removal_fix(ctx: "Context", flags: list["Flag"], title: str):
    """A fix that deletes ``flags`` (all their spellings), or None."""
    from ..diagnostics import Fix
    from ..edits import remove_flag

    edits = []
    for f in flags:
        text = ctx.text_of(path_of(ctx, f))
        if text is None:
            return None
        edits.extend(remove_flag(text, f, path_of(ctx, f)))
    return Fix(title, edits, applicability=Applicability.UNSAFE, preferred=True) if edits else None
