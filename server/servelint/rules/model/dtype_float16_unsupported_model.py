"""SL312: `--dtype float16` for a model type that does not support it."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of
from ...derive.model import DTYPE_NAMES, float16_unsupported_model_types, model_config
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note

# The reason ``_FLOAT16_NOT_SUPPORTED_MODELS`` gives every model type.
_REASON = "Numerical instability. Please use bfloat16 or float32 instead."


class Float16UnsupportedModel(Rule):
    """`--dtype float16` for a model type that does not support it.

    ## What it does
    Reports `--dtype half` / `--dtype float16` when the model's config.json
    has `model_type` `gemma2`, `gemma3`, `gemma3_text` or `glm4` (and
    `plamo2` up to 0.26.0).

    ## Why
    These models overflow in float16. vLLM stops with "The model type
    'gemma3_text' does not support float16. Reason: Numerical instability.
    Please use bfloat16 or float32 instead."

    ## Example
    ```sh
    vllm serve google/gemma-3-1b-it --dtype half
    ```

    ## Fix
    Use `--dtype bfloat16` (or `float32`, or `auto`: vLLM then avoids
    float16 for these models).

    ## Evidence
    A written `--dtype` and the `model_type` of the model's config.json
    (the top-level one; no `--hf-overrides`); the model types come from the
    release's own `_FLOAT16_NOT_SUPPORTED_MODELS` (generated code facts).

    ## vLLM source
    `_check_valid_dtype`; `_FLOAT16_NOT_SUPPORTED_MODELS` just above it; the
    model type is the top-level config's (`_get_and_verify_dtype` is called
    with `self.hf_config`).
    """

    code = "SL312"
    vllm_checks = (VllmCheck("fp16", "does not support float16. Reason:", "vllm/config/model.py"),)
    reviewed = ("0.25.0", "0.33.0")
    name = "dtype-float16-unsupported-model"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    since = "0.25.0"
    anchor = "--dtype"
    requires = ("--dtype", "--hf-overrides")
    reads = frozenset({"dtype", "model", "hf_overrides"})

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        dtype = value_of(inv, "dtype")
        if dtype.how != "flag" or not isinstance(dtype.value, str) or DTYPE_NAMES.get(dtype.value.lower()) != "float16":
            return
        cfg = model_config(ctx)
        mtype = cfg.get("model_type") if cfg is not None else None
        if mtype not in float16_unsupported_model_types(ctx.version):
            return
        message = f"The model type {mtype!r} does not support float16. Reason: {_REASON}"
        rel = [r for r in [model_note(ctx)] if r is not None]
        yield finding(ctx, dtype.flags[-1], message, "fp16", related_to=rel)
