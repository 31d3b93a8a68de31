"""Flag values as vLLM converts them: argparse ``type=`` callables and choices.

The knowledge tables record each option's ``type`` as a readable rendering of
vLLM's callable (``optional(int)``, ``human_readable_int_or_auto``,
``dataclass_json(CompilationConfig)``...).  ``convert`` mirrors each of those
callables, as written in vllm/engine/arg_utils.py (``optional_type``,
``parse_type``, ``union_dict_and_str``) and vllm/utils/argparse_utils.py
(``human_readable_int``, ``human_readable_int_or_auto``) of 0.33.0; the same
callables exist in 0.25.0–0.32.0.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any
from .structs import dataclass

if TYPE_CHECKING:  # pragma: no cover
    from .argv import Flag, Invocation
    from .knowledge.flags import Option

_HUMAN_INT = re.compile(r"(\d+(?:\.\d+)?)([kKmMgGtT])")
_DECIMAL = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
_BINARY = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


class ValueProblem(ValueError):
    """A value vLLM rejects; ``hint`` is servelint's advice."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


def human_readable_int(value: str) -> int:
    value = value.strip()
    m = _HUMAN_INT.fullmatch(value)
    if m:
        number, suffix = m.groups()
        if suffix in _DECIMAL:
            return int(float(number) * _DECIMAL[suffix])
        try:
            return int(number) * _BINARY[suffix]
        except ValueError:
            raise ValueProblem(
                f"decimals are not allowed with binary suffixes like {suffix}",
                f"did you mean {number}{suffix.lower()}?",
            ) from None
    try:
        return int(value)
    except ValueError:
        raise ValueProblem(f"invalid integer {value!r}", "use a number such as 8192, 32k (=32000) or 32K (=32768)") from None


def _int(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValueProblem(f"invalid int value: {value!r}") from None


def _float(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        hint = None
        if value.endswith("%"):
            hint = "write a fraction, e.g. 0.9 for 90%"
        raise ValueProblem(f"invalid float value: {value!r}", hint) from None


def _json(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError as exc:
        raise ValueProblem(f"invalid JSON: {exc.msg} at character {exc.pos}") from None
    except RecursionError:
        # vLLM's own json.loads dies the same way, with a traceback.
        raise ValueProblem("JSON nested too deeply: Python's json module gives up (RecursionError)") from None


_SIMPLE = {
    "int": _int,
    "float": _float,
    "str": str,
    "json": _json,
    "human_readable_int": human_readable_int,
}


def _converter(type_name: str | None):
    """A callable mirroring vLLM's type callable named ``type_name``."""
    if not type_name:
        return str
    t = type_name.strip()
    if t.startswith("optional(") and t.endswith(")"):
        inner = _converter(t[len("optional(") : -1])

        def optional(val: str):
            if val == "" or val == "None":
                return None
            return inner(val)

        return optional
    if t.startswith("parse(") and t.endswith(")"):
        return _converter(t[len("parse(") : -1])
    if t.startswith("dataclass_json("):
        return _json
    if t == "human_readable_int_or_auto":
        return lambda v: -1 if v.strip() in ("-1",) or v.strip().lower() == "auto" else human_readable_int(v)
    if t == "union_dict_and_str":
        return lambda v: _json(v) if re.match(r"(?s)^\s*{.*}\s*$", v) else str(v)
    if t == "parse_reasoning_parser":
        return lambda v: "" if v.lower() == "none" else v
    if "lower()" in t and "replace" in t:
        return lambda v: v.lower().replace("-", "_")
    return _SIMPLE.get(t, str)


def convert(option: "Option", text: str) -> Any:
    """The value vLLM gets for ``text``; raises ValueProblem as argparse would."""
    return _converter(option.type)(text)


@dataclass(slots=True)
class Checked:
    """A value as vLLM converts it, or the problem vLLM reports (and a hint)."""

    value: Any
    problem: str | None = None
    hint: str | None = None


def check_value(option: "Option", text: str) -> Checked:
    """Convert and check choices, like argparse's ``_get_values``."""
    try:
        value = convert(option, text)
    except ValueProblem as exc:
        return Checked(None, str(exc), exc.hint)
    if option.choices is not None and value is not None and value not in option.choices:
        # argparse compares the *converted* value with the choices.
        if not (isinstance(value, str) and str(value) in [str(c) for c in option.choices]):
            return Checked(value, f"invalid choice: {text!r}")
    return Checked(value)


def flag_value(flag: "Flag") -> Any:
    """The Python value a flag sets (True/False for booleans)."""
    opt = flag.option
    if opt is None:
        return None
    if opt.kind in ("bool", "store_true"):
        return not flag.negated
    if not flag.values:
        return opt.const
    if flag.dotted_key is not None:
        return None
    if opt.nargs in ("+", "*") or isinstance(opt.nargs, int):
        out = []
        for w in flag.values:
            c = check_value(opt, w.text)
            out.append(c.value)
        return out
    return check_value(opt, flag.values[0].text).value


def effective(inv: "Invocation", dest: str, default: Any = "__option_default__") -> Any:
    """What vLLM ends up with for ``dest``: the last flag, merged dotted keys, or the default.

    JSON options merge dotted keys (``--x.a 1 --x.b 2``) into one object that
    replaces any whole JSON value, as vLLM appends the merged object last.
    """
    flags = inv.flags_for(dest)
    dotted = [f for f in flags if f.dotted_key is not None and f.values]
    if dotted:
        merged: dict = {}
        for f in dotted:
            raw = f.values[0].text
            try:
                val: Any = json.loads(raw)
            except (ValueError, RecursionError):
                try:
                    val = human_readable_int(raw)
                except ValueProblem:
                    val = raw
            if f.dotted_append:
                val = [v.strip() for v in raw.split(",")]
            node = merged
            keys = f.dotted_key.split(".")
            for k in keys[:-1]:
                node = node.setdefault(k, {}) if isinstance(node.get(k, {}), dict) else node
            if f.dotted_append and isinstance(node.get(keys[-1]), list):
                node[keys[-1]].extend(val)
            else:
                node[keys[-1]] = val
        return merged
    whole = [f for f in flags if f.dotted_key is None]
    if whole:
        return flag_value(whole[-1])
    if default != "__option_default__":
        return default
    opt = inv.knowledge.by_dest.get(dest)
    return opt.default if opt is not None else None
