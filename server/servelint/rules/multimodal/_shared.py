"""What the ``MultiModalConfig`` rules share."""

from __future__ import annotations

from ...derive.flags import file_value
from ...derive.model import arch_facts, model_config
from ..base import Context, Related, model_note


def builds_multimodal_config(ctx: Context) -> bool:
    """Whether vLLM builds a ``MultiModalConfig`` for the launch: the
    model's config.json is known (no ``--hf-overrides``, not inferred) and
    its architecture ``supports_multimodal`` in the release's registry
    (``if self._model_info.supports_multimodal``, vllm/config/model.py)."""
    if model_config(ctx) is None:
        return False
    arch = arch_facts(ctx)
    return arch is not None and arch.supports_multimodal is True


def model_related(ctx: Context) -> list[Related]:
    note = model_note(ctx)
    return [note] if note is not None else []


def optional_str(ctx: Context, dest: str):
    """(known, value) of an option whose value may be None: a written
    "None"/"" counts as unset, as the option's ``optional_type`` makes it."""
    v = file_value(ctx.invocation, dest)
    if v.how not in ("flag", "default"):
        return False, None
    value = v.value
    if isinstance(value, str) and value in ("", "None"):
        value = None
    return True, value


# The FP8 scale flags of the encoder, in the order vLLM names them.
FP8_SCALE_DESTS = ("mm_encoder_fp8_scale_path", "mm_encoder_fp8_scale_save_path")
