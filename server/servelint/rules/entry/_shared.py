"""What the entry-point rules share: rewriting a module launch as `vllm serve`."""

from __future__ import annotations

import re

from ...diagnostics import Applicability, Edit, Fix
from ...edits import is_literal, remove_flag, shell_quote, style_of
from ..base import Context


def to_vllm_serve(ctx: Context, module: str) -> list[Fix]:
    """``python -m MODULE --model M ...`` → ``vllm serve M ...``, in a
    shell-word launch whose interpreter is a plain name (``python``,
    ``python3``, ``python3.11``): exactly those words are replaced."""
    inv = ctx.invocation
    launch = inv.launch
    text = ctx.text_of()
    if text is None or style_of(launch.raw) != "shell":
        return []
    span = launch.entry_span
    # re's cache compiles it on first use: only a launch of the module needs it.
    if not re.fullmatch(r"python(?:\d+(?:\.\d+)*)?[ \t]+-m[ \t]+" + re.escape(module), text[span.start:span.end]):
        return []
    new = "vllm serve"
    edits: list[Edit] = []
    flag = inv.model_flag
    if inv.model_source == "--model" and flag is not None:
        model = inv.model
        if flag.path is not None or model is None or not is_literal(model):
            return []  # a model from a --config file or a variable: leave it where it is
        new += " " + shell_quote(model.text)
        edits.extend(remove_flag(text, flag, ctx.path))
    edits.append(Edit(ctx.path, span, new))
    return [Fix("Use vllm serve", edits, Applicability.UNSAFE, preferred=True)]
