"""What the attention rules share: the backend names of ``AttentionConfig``'s
before-validators, checked in vLLM's order.

``validate_backend_before`` maps ``auto`` (any case) to None and any other
string to ``AttentionBackendEnum[value.upper()]``;
``validate_backend_per_kind_before`` walks the map in order and stops at the
first key that is not a ``KVCacheSpecKind`` value or value that is not a
member (``auto`` included: it is not one).  The names are generated per
release (``knowledge.config_names``).  Read in vllm/config/attention.py and
vllm/engine/arg_utils.py of 0.25.0-0.33.0.
"""

from __future__ import annotations

from typing import NamedTuple

from ...derive.config_json import config_object, has_field
from ...derive.view import memo
from ...knowledge import validators
from ...knowledge.config_names import names
from ...knowledge.validators import VllmCheck

UNKNOWN_BACKEND = VllmCheck("attention.backend_unknown", "Unknown attention backend: '{}'. Valid options are: {}",
                            "vllm/v1/attention/backends/registry.py")
UNKNOWN_KIND = VllmCheck("attention.backend_per_kind_unknown_kind", "in backend_per_kind. Valid kinds are:",
                         "vllm/config/attention.py")


class Problem(NamedTuple):
    check: VllmCheck
    values: tuple  # what vLLM formats into its message
    key: str  # "backend", "backend_per_kind" or the flag's dest
    close: str = ""  # the nearest valid name, for servelint's note


def _nearest(name: str, valid) -> str:
    import difflib  # only for a name to suggest: a clean launch's check does without

    got = difflib.get_close_matches(name, list(valid), n=1, cutoff=0.6)
    return got[0] if got else ""


def note(problem: "Problem", where: str = "") -> str:
    """servelint's clause after vLLM's message: where, and the nearest name."""
    parts = [where] if where else []
    if problem.close:
        parts.append(f"did you mean {problem.close}?")
    return "; ".join(parts)


def unknown_backend(name: str, version: str) -> "Problem | None":
    """The problem of ``AttentionBackendEnum[name.upper()]``, or None when
    the name is a member (or the release's members are not known)."""
    members = names("attention_backends", version)
    if members is None or name.upper() in members:
        return None
    # No nearest name: the members' spellings are too alike for difflib
    # (FLASH_ATTENTION is nearer FLEX_ATTENTION than FLASH_ATTN).
    return Problem(UNKNOWN_BACKEND, (name.upper(), ", ".join(members)), "")


def attention_config_problems(inv) -> "tuple[list[Problem], object] | None":
    """The problems of ``--attention-config``'s backend names (``backend``
    and ``backend_per_kind``, at most one each: each validator stops at its
    first), with the flag; None when the file does not show the object or
    the release has no such option."""
    if not inv.flags_for("attention_config"):
        return None
    return memo(inv, ("attention.config_problems",), lambda: _config_problems(inv))


def _config_problems(inv):
    got = config_object(inv, "attention_config")
    if got is None or got[1] is None:
        return None
    cfg, flag = got
    out: list[Problem] = []
    backend = cfg.get("backend")
    if isinstance(backend, str) and backend.lower() != "auto":
        p = unknown_backend(backend, inv.version)
        if p is not None:
            out.append(p._replace(key="backend"))
    per_kind = cfg.get("backend_per_kind")
    kinds = names("kv_cache_spec_kinds", inv.version)
    if isinstance(per_kind, dict) and has_field(inv, "attention_config", "backend_per_kind") and kinds is not None:
        for kind, value in per_kind.items():
            if kind not in kinds:
                out.append(Problem(UNKNOWN_KIND, (kind, ", ".join(sorted(kinds))), "backend_per_kind",
                                   _nearest(kind, kinds)))
                break
            if not isinstance(value, str):
                break  # pydantic's own error
            p = unknown_backend(value, inv.version)
            if p is not None:
                out.append(p._replace(key="backend_per_kind"))
                break
    return [p for p in out if validators.has(p.check.key, inv.version)], flag
