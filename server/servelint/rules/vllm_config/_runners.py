"""What the Model Runner feature-list rules share (SL610, SL611): where a
finding goes and what it points to."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...derive.runner import V2_ENV
from ...diagnostics import Related
from ..base import Context, Finding, path_of, vllm_source

if TYPE_CHECKING:  # pragma: no cover
    from ...derive.base import Derived
    from ...derive.model_runner import Features


def runner_finding(ctx: Context, key: str, message: str, runner: "Derived", features: "Features",
                   note: str, exact: bool = True) -> Finding:
    """A finding of ``message`` (vLLM's own when ``exact``: every entry of
    its list is known; else servelint's wording) on the first flag that turns a listed
    feature on (else on ``VLLM_USE_V2_MODEL_RUNNER``, else on the launch),
    pointing at the other features' flags and at the variable."""
    inv = ctx.invocation
    flags = [f for group in features.flags for f in group]
    var = inv.env.get(V2_ENV)
    rel: list[Related] = []
    if flags:
        anchor = flags[0]
        span, path = anchor.name_span, path_of(ctx, anchor)
        seen = {id(anchor)}
        for f in flags[1:]:
            if id(f) in seen:
                continue
            seen.add(id(f))
            rel.append(Related(path_of(ctx, f), f.name_span, f"also listed: set by {f.canonical}"))
    elif runner.how == "env" and var is not None and var.span is not None:
        span, path = var.span, ctx.path
    elif runner.flags:
        span, path = runner.flags[-1].name_span, path_of(ctx, runner.flags[-1])
    else:
        span, path = inv.launch.entry_span, ctx.path
    if runner.how == "env" and var is not None and var.span is not None and flags:
        rel.append(Related(ctx.path, var.span, f"{V2_ENV}={var.value} set here"))
    for f in runner.flags:
        if runner.how != "env" and flags and f is not flags[0]:
            rel.append(Related(path_of(ctx, f), f.name_span, f"runner chosen because of {f.canonical}"))
    text = f"{message} ({note})" if note else message
    return Finding(span, text, flag=flags[0].canonical if flags else None, related=rel,
                   vllm_message=message if exact else None,
                   path=path, data={"vllm_source": vllm_source(ctx, key)})
