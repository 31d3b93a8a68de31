"""``QuantizationConfigArgs`` (vllm/config/quantization.py): the names
`--quantization-config` accepts, per release.

``QUANT_KEY_NAMES`` (the weight/activation names of a ``QuantSpec``) and
``_ONLINE_SHORTHANDS`` (the names `linear`/`moe`/`targets` accept as a whole
spec) grew from release to release; each candidate is a line of vLLM's code
whose presence the generated table records, so a release's own lists come
from its source.  The shorthands without a `linear` spec are
``int8_per_channel_weight_only`` and ``nvfp4_per_token`` in every release
(0.25.0-0.33.0: their ``QuantizationConfigArgs`` set only ``moe``).
"""

from __future__ import annotations

from ..knowledge import validators
from ..knowledge.validators import VllmCheck

_PATH = "vllm/config/quantization.py"
_KEY_NAMES = {
    "fp8_per_tensor_static": "kFp8StaticTensorSym",
    "fp8_per_tensor_dynamic": "kFp8DynamicTensorSym",
    "fp8_per_token": "kFp8DynamicTokenSym",
    "fp8_per_channel_static": "kFp8StaticChannelSym",
    "fp8_per_block_static": "kFp8Static128BlockSym",
    "fp8_per_block_dynamic": "kFp8Dynamic128Sym",
    "mxfp8": "kMxfp8Dynamic",
    "mxfp4": "kMxfp4Dynamic",
    "nvfp4_per_token": "kNvfp4DynamicToken",
    "int8_per_channel_static": "kInt8StaticChannelSym",
    "int8_per_group_32": "kInt8Dynamic32Sym",
    "int4_per_group_32": "kInt4Static32",
}
_SHORTHANDS = ("fp8_per_tensor", "fp8_per_block", "fp8_per_channel", "mxfp8", "mxfp4",
               "int8_per_channel_weight_only", "nvfp4_per_token")
NO_LINEAR_SPEC = frozenset({"int8_per_channel_weight_only", "nvfp4_per_token"})

KEY_NAME_FACTS = {n: VllmCheck(f"quant_config.key_name.{n}", f'"{n}": {k},', _PATH, code=True)
                  for n, k in _KEY_NAMES.items()}
SHORTHAND_FACTS = {n: VllmCheck(f"quant_config.shorthand.{n}", f'"{n}": QuantizationConfigArgs(', _PATH, code=True)
                   for n in _SHORTHANDS}
# The targets field (0.30.0+).
TARGETS_FACT = VllmCheck("quant_config.targets", "targets: dict[str, str] | None = None", _PATH, code=True)
VLLM_FACTS = (*KEY_NAME_FACTS.values(), *SHORTHAND_FACTS.values(), TARGETS_FACT)


def key_names(version: str) -> tuple[str, ...] | None:
    """``QUANT_KEY_NAMES``'s names in ``version`` (None: no such table)."""
    out = tuple(n for n, c in KEY_NAME_FACTS.items() if validators.has(c.key, version))
    return out or None


def shorthands(version: str) -> tuple[str, ...] | None:
    """``_ONLINE_SHORTHANDS``'s names in ``version`` (None: no such table)."""
    out = tuple(n for n, c in SHORTHAND_FACTS.items() if validators.has(c.key, version))
    return out or None


def has_targets(version: str) -> bool:
    return validators.has(TARGETS_FACT.key, version)
