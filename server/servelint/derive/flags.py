"""Reading one option as vLLM receives it: the deciding flag, its converted
value or the release's default, a JSON option's merged object.

Every function answers ``UNKNOWN`` when the file does not show the value (a
variable only known at run time, a value argparse rejects: another rule
reports that).  The invocation may be a ``RecordedInvocation``: the reads
count for the rule that asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..knowledge import validators
from ..knowledge.validators import VllmCheck
from ..model import Entry
from ..values import check_value, effective
from .base import UNKNOWN, Derived, is_int
from .view import memo

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Flag, Invocation

# ``create_speculative_config`` turns "-" into "_" in the keys of
# ``--speculative-config`` (JSON and dotted keys alike) before building
# SpeculativeConfig; other JSON options keep the keys as written, and
# pydantic rejects a dashed one.  Checked with the oracle on 0.25.0-0.33.0:
# ``--speculative-config.num-speculative-tokens 1`` fails only in 0.25.0.
DASHED_KEYS = VllmCheck(
    "speculative.dashed_keys", 'k.replace("-", "_"): v for k, v in self.speculative_config.items()',
    "vllm/engine/arg_utils.py", code=True,
)
# ``KernelConfig``'s "before" field validators lower-case these values and
# turn "-" into "_" before pydantic checks them against their Literal
# (vllm/config/kernel.py: ``_normalize_moe_backend`` and its two siblings;
# sparse_indexer_topk_backend from 0.30.0). The oracle accepts
# ``--kernel-config '{"moe_backend": "FLASHINFER-CUTLASS"}'`` (0.33.0).
_NORMALIZED_BEFORE = {
    ("kernel_config", "moe_backend"): VllmCheck(
        "kernel.normalize_moe_backend", "def _normalize_moe_backend(cls, value: Any) -> Any:",
        "vllm/config/kernel.py", code=True),
    ("kernel_config", "linear_backend"): VllmCheck(
        "kernel.normalize_linear_backend", "def _normalize_linear_backend(cls, value: Any) -> Any:",
        "vllm/config/kernel.py", code=True),
    ("kernel_config", "sparse_indexer_topk_backend"): VllmCheck(
        "kernel.normalize_sparse_indexer_topk_backend",
        "def _normalize_sparse_indexer_topk_backend(cls, value: Any) -> Any:", "vllm/config/kernel.py", code=True),
}
VLLM_FACTS = (DASHED_KEYS, *_NORMALIZED_BEFORE.values())


def normalized_before(version: str, dest: str, key: str, value: object) -> object:
    """``value`` of ``key`` in JSON option ``dest`` as the field's "before"
    validator hands it to pydantic in release ``version``."""
    check = _NORMALIZED_BEFORE.get((dest, key))
    if check is not None and isinstance(value, str) and validators.has(check.key, version):
        return value.lower().replace("-", "_")
    return value


# Keys (with a value, or any value: None) that a config class's "before"
# validator refuses with its own message before pydantic checks the fields:
# ``PoolerConfig.reject_removed_parameters`` (vllm/config/pooler.py, and the
# removed task names of vllm/tasks.py). SL916 and SL917 report them; the field
# check (SL103) must not report the same key a second time.
_REFUSED_BEFORE = {
    ("pooler_config", "normalize", None): "pooler.normalize_removed",
    ("pooler_config", "task", "score"): "pooler.task_score_removed",
    ("pooler_config", "task", "encode"): "pooler.task_encode_removed",
}


def refused_before(version: str, dest: str, key: str, value: object = None) -> bool:
    """Whether release ``version`` refuses ``key`` (set to ``value``) of the
    JSON option ``dest`` in a "before" validator, ahead of its fields."""
    check = _REFUSED_BEFORE.get((dest, key, None))
    if check is None and isinstance(value, str):
        check = _REFUSED_BEFORE.get((dest, key, value))
    return check is not None and validators.site(check, version) is not None


def config_key(version: str, dest: str, key: str) -> str:
    """The key vLLM looks up for ``key`` written in JSON option ``dest``."""
    if dest == "speculative_config" and validators.has(DASHED_KEYS.key, version):
        return key.replace("-", "_")
    return key


def written(inv: "Invocation", dest: str) -> list["Flag"]:
    """The flags of ``dest`` in the launch (CLI and --config), in argv order."""
    return inv.flags_for(dest)


def last_flag(inv: "Invocation", dest: str) -> "Flag | None":
    """The flag argparse keeps for ``dest`` (the last one)."""
    return inv.last(dest)


def _flags_exact(flags: list["Flag"]) -> bool:
    return all(f.exact and not f.missing_value and f.unexpected_value is None for f in flags)


def value_of(inv: "Invocation", dest: str) -> Derived:
    """The converted value of a plain (non-JSON) option, or its parser default.

    Unknown when the deciding flag's value is not known from the file or is
    one argparse rejects (another rule reports that).
    """
    return memo(inv, (value_of, dest), lambda: _value_of(inv, dest))


def _value_of(inv: "Invocation", dest: str) -> Derived:
    flag = last_flag(inv, dest)
    opt = inv.knowledge.by_dest.get(dest)
    if flag is None:
        if opt is None:
            return UNKNOWN
        return Derived(opt.default, "default")
    if not _flags_exact([flag]):
        return UNKNOWN
    if opt is not None and opt.kind in ("bool", "store_true"):
        return Derived(not flag.negated, "flag", flags=(flag,))
    if not flag.values:
        return Derived(opt.const if opt is not None else None, "flag", flags=(flag,))
    checked = check_value(flag.option, flag.values[0].text)
    if checked.problem:
        return UNKNOWN
    return Derived(checked.value, "flag", flags=(flag,))


def defaults_unknown(inv: "Invocation") -> bool:
    """Whether an option the launch does not write is unknown rather than
    the release's default: in a ``--config`` file linted on its own, the
    command line that names it may set any option."""
    return inv.launch.entry is Entry.CONFIG_FILE


def file_value(inv: "Invocation", dest: str) -> Derived:
    """``value_of``, except that a default is UNKNOWN where the file does not
    decide the defaults (``defaults_unknown``)."""
    v = value_of(inv, dest)
    if v.how == "default" and defaults_unknown(inv):
        return UNKNOWN
    return v


def int_of(inv: "Invocation", dest: str) -> Derived:
    """An integer option's value (``file_value``); UNKNOWN when it is not an
    integer known from the file or the release has no such option."""
    v = file_value(inv, dest)
    return v if is_int(v.value) else UNKNOWN


def int_or_none(inv: "Invocation", dest: str, absent: object = None) -> tuple[bool, object]:
    """(known, value) of an integer option whose default may be None
    (``file_value``); ``(True, absent)`` when the release has no such option."""
    if dest not in inv.knowledge.by_dest:
        return True, absent
    v = file_value(inv, dest)
    if v.how == "unknown" or not (v.value is None or is_int(v.value)):
        return False, None
    return True, v.value


def switch(inv: "Invocation", dest: str) -> bool | None:
    """A boolean option as vLLM receives it (``file_value``); False when the
    release has no such option, None when the file does not show it."""
    if dest not in inv.knowledge.by_dest:
        return False
    v = file_value(inv, dest)
    return bool(v.value) if v.known else None


def known_flag(inv: "Invocation", *dests: str) -> "Flag | None":
    """The flag that decides the first of ``dests`` the launch writes with a
    value servelint knows; None when it writes none of them so."""
    for dest in dests:
        if inv.last(dest) is None:
            continue  # the common case, and the cheapest test
        v = value_of(inv, dest)
        if v.how == "flag" and v.flags:
            return v.flags[-1]
    return None


def json_of(inv: "Invocation", dest: str) -> Derived:
    """A JSON option's object as vLLM receives it (dotted keys merged), or None."""
    flags = written(inv, dest)
    if not flags:
        return Derived({}, "default")
    if not _flags_exact(flags):
        return UNKNOWN
    value = effective(inv, dest)
    if value is None:
        # "None"/"null": the option is explicitly unset.
        return Derived({}, "flag", flags=tuple(flags))
    if not isinstance(value, dict):
        return UNKNOWN
    return Derived(value, "flag", flags=tuple(flags))


def json_keys_known(inv, dest: str, obj: dict) -> bool:
    """Whether every key of a JSON flag's object is a field of its config
    class (from the release's option schema); vLLM refuses other keys first,
    with its own message.  True when the schema lists no fields."""
    opt = inv.knowledge.by_dest.get(dest)
    info = getattr(opt, "json", None) or {}
    fields = info.get("fields") or {}
    if not fields:
        return True
    return all(isinstance(k, str) and config_key(inv.version, dest, k) in fields for k in obj)
