"""``LoadConfig`` as the model loader sees it: which `--load-format` names
the release registers (``_LOAD_FORMAT_TO_MODEL_LOADER``,
vllm/model_executor/model_loader/__init__.py)."""

from __future__ import annotations

from ..knowledge import validators
from ..knowledge.validators import VllmCheck

# Every format any release registers, and its loader class: one code fact
# each (a line of ``_LOAD_FORMAT_TO_MODEL_LOADER``), so the release's own
# set is generated (bitsandbytes left it in 0.28.0, ipc_cache came in
# 0.30.0).
_FORMATS = {
    "auto": "DefaultModelLoader", "hf": "DefaultModelLoader", "bitsandbytes": "BitsAndBytesModelLoader",
    "dummy": "DummyModelLoader", "fastsafetensors": "DefaultModelLoader", "instanttensor": "DefaultModelLoader",
    "ipc_cache": "IpcModelLoader", "mistral": "DefaultModelLoader", "modelexpress": "ModelExpressModelLoader",
    "npcache": "DefaultModelLoader", "pt": "DefaultModelLoader", "runai_streamer": "RunaiModelStreamerLoader",
    "runai_streamer_sharded": "ShardedStateLoader", "safetensors": "DefaultModelLoader",
    "sharded_state": "ShardedStateLoader", "tensorizer": "TensorizerLoader",
}
LOAD_FORMAT_FACTS = tuple(
    VllmCheck(f"load.format.{name}", f'"{name}": {cls},', "vllm/model_executor/model_loader/__init__.py", code=True)
    for name, cls in _FORMATS.items()
)
VLLM_FACTS = LOAD_FORMAT_FACTS


def load_formats(version: str) -> tuple[str, ...] | None:
    """The load formats vLLM ``version`` registers itself (plugins may
    register more); None when the generated table has none for it."""
    out = tuple(name for name, fact in zip(_FORMATS, LOAD_FORMAT_FACTS) if validators.has(fact.key, version))
    return out or None
