"""The rule registry.

Each module holds one rule family with its documentation.  Adding a rule is
adding a class to a module listed here (or a new module to ``_MODULES``).
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from .base import Context, Finding, Rule, version_key

# In the order rules are evaluated and documented.
_MODULES = (
    "parse_level",
    "meta",
    "config_file",
    "model_missing",
    "unknown_flag",
    "ambiguous_flag",
    "invalid_value",
    "duplicate_flag",
    "deprecated_flag",
    "extra_argument",
    "json_dotted",
    "replayssm",
    "mamba_block_size",
    "top_parallel", "top_context", "top_scheduler", "top_quantization", "top_dtype", "top_speculative", "top_lora", "top_frontend", "top_mamba",
    "top_quant_checkpoint",
    # Top-25 #25; not a top_* module: the oracle cannot reach its check, so it
    # has no conformance case (tests/rules/test_top_conformance.py).
    "cudagraph_sizes",
)


@lru_cache(maxsize=1)
def rule_classes() -> tuple[type[Rule], ...]:
    found: list[type[Rule]] = []
    for name in _MODULES:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{name}":
                continue  # a family not written yet
            raise
        for obj in vars(module).values():
            if (
                isinstance(obj, type)
                and issubclass(obj, Rule)
                and obj.__module__ == module.__name__
                and getattr(obj, "code", None)
            ):
                found.append(obj)
    return tuple(found)


@lru_cache(maxsize=1)
def invocation_rules() -> tuple[Rule, ...]:
    from .parse_level import ParseProblemRule

    return tuple(cls() for cls in rule_classes() if not issubclass(cls, ParseProblemRule))


@lru_cache(maxsize=1)
def by_key() -> dict[str, type[Rule]]:
    """Rules by code and by name."""
    out: dict[str, type[Rule]] = {}
    for cls in rule_classes():
        out[cls.code] = cls
        out[cls.name] = cls
    return out


def lookup(key: str) -> type[Rule] | None:
    return by_key().get(key)


__all__ = ["Rule", "Finding", "Context", "rule_classes", "invocation_rules", "lookup", "version_key"]
