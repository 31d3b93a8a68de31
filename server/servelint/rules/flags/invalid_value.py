"""SL103: values vLLM rejects: wrong type, not a choice, out of range, missing, bad JSON."""

from __future__ import annotations

import json
import re

from ...diagnostics import Applicability, Category, Edit, Fix, Severity
from ...jsonpos import locate
from ...text import Span
from ...derive.flags import config_key, normalized_before, refused_before
from ...values import check_value
from ..base import Context, Finding, Rule
from ._shared import FALSE_WORDS, TRUE_WORDS, nearest

# Compiled by re's cache on first use (few options need it): ~0.2 ms of a cold check.
_LITERAL = r"Literal\[([^\]]*)\]"


def _literal_choices(type_text: str | None) -> list | None:
    """The allowed values of a field annotated ``Literal[...]`` (and nothing wider)."""
    if not type_text or "str]" in type_text.replace(" ", "") and "Union[" in type_text:
        return None
    # Every Literal of a union counts (``PoolerConfig.pooling_type`` is
    # ``Literal["CLS", "LAST", "MEAN"] | Literal["ALL", "STEP"] | None``).
    groups = re.findall(_LITERAL, type_text)
    if not groups:
        return None
    try:
        return [c for g in groups for c in json.loads("[" + g.replace("'", '"') + "]")]
    except ValueError:
        return None


def _constraint_problem(value, constraints: dict | None) -> str | None:
    if not constraints or not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    for op, text in (("gt", "greater than"), ("ge", "at least"), ("lt", "less than"), ("le", "at most")):
        bound = constraints.get(op)
        if bound is None:
            continue
        ok = {"gt": value > bound, "ge": value >= bound, "lt": value < bound, "le": value <= bound}[op]
        if not ok:
            return f"must be {text} {bound}"
    return None


# Options whose help lists values (``metavar``) that argparse does not
# enforce, but that a config class checks later all the same.
_CHECKED_LATER: dict[str, str] = {}

# Options whose listed-but-unenforced values another rule checks, with vLLM's
# own message: this rule stays silent on them so a bad value is reported once.
# --kv-cache-dtype (a plain str from 0.33.0, checked by
# CacheConfig._validate_cache_dtype, vllm/config/cache.py 0.33.0:473) is
# kv-cache-dtype-unknown (SL314, rules/cache/); up to 0.32.0 argparse
# enforces its choices and this rule reports it. --tool-call-parser and
# --reasoning-parser are looked up in the registered parsers, plugins
# included, by SL722/SL723 (rules/frontend/), where vLLM looks them up.
_REPORTED_ELSEWHERE = frozenset({"kv_cache_dtype", "tool_call_parser", "reasoning_parser"})


def _short(text: str, limit: int = 60) -> str:
    """A value as quoted in a message: long JSON would drown the message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _optimization_level(value, opt) -> str | None:
    try:
        level = int(str(value).strip())
    except ValueError:
        level = None
    return None if level in (0, 1, 2, 3) else "must be 0, 1, 2 or 3"


def _positive_model_len(value, opt) -> str | None:
    return "must be a positive number of tokens (-1 or auto: the model's maximum)" if value == 0 else None


def _device_ids(value, opt) -> str | None:
    # The option's type splits at commas and keeps digits as ints.
    ids = [int(p) if p.isdecimal() else p for p in (part.strip() for part in str(value).split(","))]
    if len(set(ids)) != len(ids):
        return "must not contain duplicates"
    if any(isinstance(i, str) for i in ids) and not all(isinstance(i, str) for i in ids):
        return "must not mix integer IDs and UUIDs"
    return None


def _partial_prefills(value, opt) -> str | None:
    if value != opt.default:
        return f"is not supported: any value but the default ({opt.default}) stops vLLM (Concurrent Partial Prefill)"
    return None


# Checks vLLM makes on a value argparse lets through.  All hold in
# 0.25.0-0.33.0 (for the releases that have the flag):
# * VllmConfig.optimization_level is OptimizationLevel, an IntEnum O0-O3
#   (vllm/config/vllm.py:77-88 in 0.25.0, :132-143 in 0.33.0), while
#   --optimization-level (and -O) is a plain str: "Input should be 0, 1, 2 or 3";
# * ModelConfig rejects a max_model_len below 1 once -1/auto is resolved
#   (vllm/config/model.py:785 in 0.25.0, :1070 in 0.33.0);
# * EngineArgs._resolve_device_ids rejects repeated --device-ids and a mix of
#   indices and UUIDs (vllm/engine/arg_utils.py:1763-1770 in 0.25.0,
#   :2150-2158 in 0.33.0);
# * EngineArgs._check_feature_supported raises "Concurrent Partial Prefill is
#   not supported" for --max-num-partial-prefills / --max-long-partial-prefills
#   other than SchedulerConfig's defaults (vllm/engine/arg_utils.py:2369-2377
#   in 0.25.0; both flags are gone in 0.27.0).
_CONFIG_CHECKS = {
    "max_num_partial_prefills": _partial_prefills,
    "max_long_partial_prefills": _partial_prefills,
    "optimization_level": _optimization_level,
    "max_model_len": _positive_model_len,
    "device_ids": _device_ids,
}


def _keys_are_fields(opt, json_info: dict) -> bool:
    """Whether the keys of the flag's JSON object are the fields listed for
    it.  A dataclass kind is validated as that class; a plain JSON dict only
    when vLLM builds the flag's own config class from it
    (--speculative-config -> SpeculativeConfig).  The class listed for
    --limit-mm-per-prompt (dict[str, int | BaseDummyOptions], 0.25.0-0.30.0)
    describes the values: its keys are modality names."""
    if json_info.get("kind") == "dataclass":
        return True
    own = "".join(part.capitalize() for part in opt.dest.split("_"))
    return json_info.get("dataclass") == own


def _listing(values) -> str:
    shown = [str(v) for v in values][:12]
    more = len(values) - len(shown)
    return ", ".join(shown) + (f", ... ({more} more)" if more > 0 else "")


class InvalidValue(Rule):
    """A flag value this vLLM release rejects.

    ## What it does
    Checks each flag's value the way vLLM converts it: integers, floats,
    human-readable integers (`32k` = 32000, `32K` = 32768), enforced choices,
    range constraints of the config field (`--gpu-memory-utilization` must be
    in (0, 1]), JSON validity and the keys of JSON-valued flags, a value given
    to a flag that takes none (`--enforce-eager=true`), and a missing value.

    ## Why
    argparse rejects bad types and choices with exit 2; range constraints and
    JSON keys fail later, when the engine config is built. Either way the
    server never comes up, after the model download.

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 90 --dtype bf16
    ```

    ## Fix
    Use a value from the listed choices or range (`0.9`, `bfloat16`).

    ## Fix safety
    Removing a value given to a switch (`--enforce-eager=true` →
    `--enforce-eager`) is safe: vLLM would set the switch the same way. Turning
    it into the negative form (`--no-…`) changes what the launch does and is
    unsafe.

    ## Evidence
    The value as written, when the file shows all of it (a value built from
    a variable or a template expression is not judged), and the option's
    type, choices, range and JSON fields in the release the file runs,
    generated from its parser and config classes. Values a help text lists
    but argparse does not enforce are a warning. A range of a
    `MultiModalConfig` field is judged only when the model's architecture is
    multimodal or not known (vLLM builds that config only for multimodal
    models).

    ## vLLM source
    argparse `type=`/`choices=` built by `_compute_kwargs` (vllm/engine/arg_utils.py);
    pydantic `Field(gt=..., le=...)` constraints of the config classes; JSON
    config dataclasses validated at parse time (`dataclass_json`).
    """

    code = "SL103"
    fixes = frozenset({Applicability.SAFE, Applicability.UNSAFE})
    name = "invalid-value"
    category = Category.INVALID_VALUE
    severity = Severity.ERROR

    def check(self, ctx: Context):
        for flag in ctx.invocation.flags:
            opt = flag.option
            if opt is None:
                continue
            shown = flag.canonical
            if flag.unexpected_value is not None:
                yield from self._unexpected(ctx, flag)
                continue
            if flag.missing_value:
                if opt.dest == "config":
                    # vLLM reads --config before argparse does ("No config file
                    # specified!", vllm/utils/argparse_utils.py): config-file (SL007).
                    continue
                yield Finding(flag.name_span, f"{flag.written} needs a value", flag=shown, path=flag.path,
                              vllm_message=f"argument {'/'.join(opt.visible or opt.strings)}: expected one argument")
                continue
            if not flag.values or not all(w.exact for w in flag.values):
                continue
            if flag.dotted_key is not None:
                yield from self._dotted(ctx, flag)
                continue
            if opt.action == "LoRAParserAction":
                yield from self._lora_modules(ctx, flag)
                continue
            # argparse converts (and checks the choices of) every occurrence,
            # but only the last one reaches the config classes and their
            # range checks.
            deciding = ctx.invocation.last(opt.dest) is flag
            for w in flag.values:
                yield from self._one(ctx, flag, w, deciding)

    def _unexpected(self, ctx, flag):
        value = flag.unexpected_value
        text = value.text.strip().lower()
        fixes = []
        name_end = flag.name_span.end
        drop = Edit(ctx.path if flag.word is None or flag.word.path is None else flag.word.path,
                    Span(name_end, value.span.end), "")
        if text in TRUE_WORDS:
            fixes.append(Fix(f"Remove ={value.text}", [drop], applicability=Applicability.SAFE, preferred=True))
        elif text in FALSE_WORDS and flag.option.negative:
            neg = flag.option.negative[0]
            full = Edit(drop.path, Span(flag.name_span.start, value.span.end), neg)
            fixes.append(Fix(f"Replace with {neg}", [full], applicability=Applicability.UNSAFE, preferred=True))
        neg_hint = f"; use {flag.option.negative[0]} to turn it off" if flag.option.negative else ""
        yield Finding(
            value.span,
            f"{flag.written} takes no value (vLLM stops with \"ignored explicit argument '{value.text}'\"){neg_hint}",
            flag=flag.canonical,
            path=value.path,
            fixes=fixes,
            vllm_message=f"argument {'/'.join(flag.option.visible or flag.option.strings)}: ignored explicit argument '{value.text}'",
        )

    def _one(self, ctx, flag, word, deciding: bool):
        opt = flag.option
        checked = check_value(opt, word.text)
        if checked.problem:
            msg = f"invalid value {_short(word.text)!r} for {flag.canonical}: {checked.problem}"
            if opt.choices:
                msg = f"invalid value {_short(word.text)!r} for {flag.canonical}; choose from {_listing(opt.choices)}"
                close = nearest(word.text, [str(c) for c in opt.choices], n=1)
                if close:
                    msg += f" (did you mean {close[0]}?)"
            if checked.hint:
                msg += f"; {checked.hint}"
            yield Finding(word.span, msg, flag=flag.canonical, path=word.path,
                          vllm_message=f"argument {flag.canonical}: {checked.problem}")
            return
        value = checked.value
        json_info = getattr(opt, "json", None)
        if json_info and json_info.get("kind") == "dataclass" and not isinstance(value, dict):
            # vLLM validates the JSON with pydantic while parsing: anything
            # but an object is "Input should be an object" (dataclass_type).
            yield Finding(word.span, f"{flag.canonical} takes a JSON object such as '{{\"key\": value}}' (got {_short(word.text)})",
                          flag=flag.canonical, path=word.path)
            return
        if json_info and isinstance(value, dict) and _keys_are_fields(opt, json_info) and (
            deciding or json_info.get("kind") == "dataclass"
        ):
            yield from self._json_keys(ctx, flag, word, value, json_info)
        if not deciding:
            return
        problem = _constraint_problem(value, getattr(opt, "constraints", None))
        if not problem and opt.dest in _CONFIG_CHECKS:
            problem = _CONFIG_CHECKS[opt.dest](value, opt)
        if problem and self._checked(ctx, opt):
            hint = ""
            if flag.option.dest == "gpu_memory_utilization" and isinstance(value, (int, float)) and value > 1:
                hint = f"; it is a fraction: {value / 100:g} for {value:g}%"
            yield Finding(word.span, f"{flag.canonical} {problem} (got {_short(word.text)}){hint}", flag=flag.canonical,
                          path=word.path)
            return
        metavar = getattr(opt, "metavar_choices", None)
        if metavar and isinstance(value, str) and value not in metavar and opt.dest not in _REPORTED_ELSEWHERE:
            later = _CHECKED_LATER.get(opt.dest)
            yield Finding(
                word.span,
                f"{_short(word.text)!r} is not one of the values vLLM {ctx.version} lists for {flag.canonical} ({_listing(metavar)})"
                + (f": {later}" if later else ""),
                flag=flag.canonical,
                path=word.path,
                severity=None if later else Severity.WARNING,
            )

    @staticmethod
    def _checked(ctx, opt) -> bool:
        """Whether vLLM builds the config class that holds this option's
        range check.  MultiModalConfig exists only for multimodal
        architectures (``if self._model_info.supports_multimodal``,
        vllm/config/model.py:831, 0.33.0): for a text-only model its fields
        are never validated."""
        if opt.group != "MultiModalConfig":
            return True
        arch = ctx.arch
        return arch is None or bool(arch.supports_multimodal)

    def _lora_modules(self, ctx, flag):
        """``LoRAParserAction`` (vllm/entrypoints/common/cli_args.py:38-69,
        0.33.0): each item is ``name=path`` or a JSON object with the
        ``LoRAModulePath`` fields ``name`` and ``path``."""
        for word in flag.values:
            item = word.text
            if item in ("", "None"):
                continue
            if "=" in item and "," not in item:
                if item.count("=") > 1 and not ctx.at_least("0.33.0"):
                    # Before 0.33.0 the item is split with split("="), which
                    # raises on a second "=".
                    yield Finding(word.span, f"{flag.canonical}: {item!r} has more than one '='; vLLM {ctx.version} "
                                  "cannot split it into name=path", flag=flag.canonical, path=word.path)
                continue
            try:
                parsed = json.loads(item)
            except ValueError:
                yield Finding(word.span, f"{flag.canonical} takes name=path or a JSON object with \"name\" and \"path\" "
                              f"(got {item!r})", flag=flag.canonical, path=word.path,
                              vllm_message=f"Invalid JSON format for --lora-modules: {item}")
                continue
            missing = [k for k in ("name", "path") if not isinstance(parsed, dict) or k not in parsed]
            if missing:
                yield Finding(word.span, f"{flag.canonical}: the JSON object needs {' and '.join(repr(k) for k in missing)}",
                              flag=flag.canonical, path=word.path)

    def _json_keys(self, ctx, flag, word, value: dict, json_info: dict):
        fields = json_info.get("fields") or {}
        if not fields:
            return
        located = locate(word.text) if word.role != "config-value" else None
        for key, val in value.items():
            span = word.span
            key_span = None
            if located is not None and key in located.children:
                child = located.children[key]
                key_span = word.sub(child.key_start, child.key_end)
                span = key_span
            elif word.node is not None:
                key_span = _yaml_key_span(word.node, key)
                span = key_span or span
            if isinstance(key, str):
                key = config_key(ctx.version, flag.dest, key)
                if refused_before(ctx.version, flag.dest, key, val):
                    continue
            if key not in fields:
                close = nearest(key, list(fields), n=1)
                msg = f"{flag.canonical} has no key {key!r}"
                if close:
                    msg += f"; did you mean {close[0]!r}?"
                yield Finding(span, msg, flag=flag.canonical, data={"key": key}, path=word.path)
                continue
            written_val, val = val, normalized_before(ctx.version, flag.dest, key, val)
            choices = _literal_choices(fields[key].get("type"))
            if choices and isinstance(val, list) and (fields[key].get("type") or "").startswith(("list[", "set[")):
                # A list of allowed values: each item is checked, not the list.
                val = next((v for v in val if v not in choices), None)
            if choices and val is not None and val not in choices:
                close = nearest(str(val), [str(c) for c in choices], n=1)
                shown = written_val if isinstance(written_val, str) else val  # as written, not as normalized
                msg = f"{flag.canonical} key {key!r}: {shown!r} is not one of {_listing(choices)}"
                if close:
                    msg += f" (did you mean {close[0]!r}?)"
                yield Finding(span, msg, flag=flag.canonical, data={"key": key}, path=word.path)
                continue
            problem = _constraint_problem(val, fields[key].get("constraints"))
            if problem:
                yield Finding(span, f"{flag.canonical} key {key!r} {problem} (got {val!r})", flag=flag.canonical,
                              path=word.path)

    def _dotted(self, ctx, flag):
        json_info = getattr(flag.option, "json", None)
        if not json_info:
            yield Finding(flag.name_span, f"{flag.canonical} is not a JSON flag: dotted keys such as {flag.written} do not apply to it",
                          flag=flag.canonical, path=flag.path)
            return
        fields = json_info.get("fields") or {}
        top = flag.dotted_key.split(".", 1)[0]
        if refused_before(ctx.version, flag.dest, config_key(ctx.version, flag.dest, top),
                          flag.values[-1].text if flag.values and "." not in flag.dotted_key else None):
            return
        if fields and config_key(ctx.version, flag.dest, top) not in fields:
            close = nearest(top, list(fields), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            if "-" in top and top.replace("-", "_") in fields:
                hint = f"; keys after the dot keep underscores: {top.replace('-', '_')!r}"
            yield Finding(flag.name_span, f"{flag.canonical} has no key {top!r}{hint}", flag=flag.canonical, path=flag.path)


def _yaml_key_span(node, key):
    children = getattr(node, "children", None)
    if isinstance(children, dict) and key in children:
        child = children[key]
        return getattr(child, "key_span", None) or getattr(child, "span", None)
    if isinstance(children, list):
        for child in children:
            if getattr(child, "key", None) == key:
                return getattr(child, "key_span", None) or getattr(child, "span", None)
    return None
