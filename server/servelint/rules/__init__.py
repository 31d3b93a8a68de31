"""The rules.

Each module holds a rule (or, until they are split, a family of rules) with
its documentation; ``registry`` finds and checks them all.  Adding a rule is
adding a module: nothing else lists it.
"""

from __future__ import annotations

from functools import lru_cache

from .base import Context, Finding, Rule, version_key
from .registry import RegistryError, by_key, rule_classes

# The modules evaluated (and documented) first, in this order; the others
# follow by name.  Parse-level and meta rules come first, then flag-level
# ones, then the combination checks.
ORDER = (
    "parse_level",
    "meta",
    "config_false_dropped",
    "config_file",
    "model_missing",
    "entry.deprecated_entry_point",
    "unknown_flag",
    "ambiguous_flag",
    "invalid_value",
    "duplicate_flag",
    "deprecated_flag",
    "extra_argument",
    "json_dotted",
    "replayssm",
    "mamba_block_size",
    "top_parallel", "top_context", "top_scheduler", "top_quantization", "top_dtype", "top_speculative", "top_lora",
    "top_frontend", "top_mamba",
    "top_quant_checkpoint",
    "cudagraph_sizes",
)


@lru_cache(maxsize=1)
def invocation_rules() -> tuple[Rule, ...]:
    from .parse_level import ParseProblemRule

    return tuple(cls() for cls in rule_classes() if not issubclass(cls, ParseProblemRule))


def lookup(key: str) -> type[Rule] | None:
    return by_key().get(key)


__all__ = ["Rule", "Finding", "Context", "RegistryError", "rule_classes", "invocation_rules", "lookup", "version_key"]
