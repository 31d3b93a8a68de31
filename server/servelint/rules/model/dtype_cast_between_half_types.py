"""SL346: `--dtype` float16 for a bfloat16 checkpoint, or the reverse."""

from __future__ import annotations

from typing import Iterable

from ...derive.deployment import machines
from ...derive.flags import value_of
from ...derive.model import DTYPE_NAMES, float16_unsupported_model_types, model_config
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, model_note

_CHECK = VllmCheck("model.dtype_cast_half_types", 'logger.warning("Casting %s to %s.", config_dtype, torch_dtype)',
                   "vllm/config/model.py", code=True)
_MESSAGE = VllmCheck("model.dtype_cast_warning", "Casting %s to %s.", "vllm/config/model.py", whole=True)

_HALF = ("float16", "bfloat16")


class DtypeCastBetweenHalfTypes(Rule):
    """`--dtype` that casts the checkpoint between float16 and bfloat16.

    ## What it does
    Warns about `--dtype bfloat16` for a checkpoint whose config.json says
    `float16`, and `--dtype float16` (`half`) for a `bfloat16` checkpoint
    when every GPU the file deploys the launch on has bfloat16 (compute
    capability 8.0 or later, from the deployment's GPU type): on older GPUs
    float16 is the only 16-bit choice.

    ## Why
    The two 16-bit types have different ranges: bfloat16 weights and
    activations can overflow in float16, and float16 ones lose precision in
    bfloat16. vLLM goes on but logs "Casting torch.bfloat16 to
    torch.float16." (upcasting to float32, or downcasting from a float32
    checkpoint, only logs an info line).

    ## Example
    ```sh
    vllm serve Qwen/Qwen1.5-7B-Chat-GPTQ-Int4 --dtype bfloat16   # a float16 checkpoint
    ```

    ## Fix
    Use `--dtype auto` (the checkpoint's type), or check the model's
    outputs in the type you chose.

    ## Evidence
    A written `--dtype` and the `dtype` / `torch_dtype` at the top of the
    model's config.json (no `--hf-overrides`); for float16, the GPUs the
    file deploys the launch on (a Kubernetes GPU product, a SkyPilot
    accelerator, a Slurm gres type servelint's table knows). Silent for the model types
    that refuse float16 (`dtype-float16-unsupported-model` reports those).

    ## vLLM source
    `_get_and_verify_dtype`, at its end.
    """

    code = "SL346"
    name = "dtype-cast-between-half-types"
    category = Category.INCOMPATIBLE
    severity = Severity.WARNING
    vllm_checks = (_MESSAGE, _CHECK)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--dtype"
    requires = ("--dtype",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        v = value_of(ctx.invocation, "dtype")
        if v.how != "flag" or not isinstance(v.value, str):
            return
        wanted = DTYPE_NAMES.get(v.value.lower())
        if wanted not in _HALF:
            return
        cfg = model_config(ctx)
        if cfg is None:
            return
        raw = cfg.get("dtype") if cfg.get("dtype") is not None else cfg.get("torch_dtype")
        if raw not in _HALF or raw == wanted:
            return
        if wanted == "float16":
            if cfg.get("model_type") in float16_unsupported_model_types(ctx.version):
                return
            # float16 is the only 16-bit type below compute capability 8.0:
            # a choice only where every machine the file allows has bfloat16.
            ms = machines(ctx) if ctx.target == "cuda" else []
            if not ms or any(m.vendor != "nvidia" or m.capability is None or m.capability < (8, 0) for m in ms):
                return
        rel = [r for r in [model_note(ctx)] if r is not None]
        message = (f"Casting torch.{raw} to torch.{wanted}: the checkpoint is {raw}; vLLM goes on with a warning "
                   "(values may overflow or lose precision)")
        yield finding(ctx, v.flags[-1], None, _MESSAGE.key, message=message, related_to=rel)
