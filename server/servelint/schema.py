"""JSON Schema of vLLM's ``--config`` YAML files, one per release.

Generated from the knowledge tables (every option of the release's ``vllm
serve`` parser), so that yaml-language-server and any JSON Schema tool can
complete, document and check a config file.  What a key may hold follows what
``FlexibleArgumentParser.load_config_file`` (vllm/utils/argparse_utils.py)
turns it into, then what argparse and the config classes accept:

* a key ``k`` becomes ``--k``; vLLM then rewrites ``_`` to ``-`` in the name
  (up to the first dot) and argparse accepts a unique prefix of a long
  option.  The schema lists each option string once, in its dashed spelling
  (what completion offers); every other spelling vLLM accepts, underscores,
  mixed, or a unique abbreviation in this release, is matched by a
  ``patternProperties`` entry with the same value schema, so it is neither
  suggested nor reported.  Dotted keys (``compilation-config.mode: 3``) are
  accepted for the JSON-valued options.  Anything else is reported
  (``additionalProperties: false``): vLLM stops on it with ``unrecognized
  arguments``.
* ``true`` becomes ``--k``, so it is the only value a switch takes; ``false``
  is dropped, not passed (verified on 0.25.0-0.33.0), which the schema
  accepts with a warning that says so.  A list becomes ``--k a b`` (for
  options taking several values), a mapping becomes ``--k '<JSON>'`` (for
  JSON-valued options, whose keys are the config class's fields, in
  underscores), anything else ``--k str(value)``, which is why numbers are
  also accepted as strings and strings that argparse converts as numbers.
* enums are argparse's ``choices`` (enforced); values vLLM only lists in its
  help are suggested, not enforced.  Defaults are the parser's, as generated
  (see tools/knowledge/README.md for CPU vs GPU); ranges are the config
  fields' ``Field(ge=...)`` constraints.

``config_schema(version)`` builds one release's schema (a few milliseconds);
nothing is stored per release.  See docs/schema.md.
"""

from __future__ import annotations

import json
import re
from typing import Any

from . import knowledge

DRAFT = "http://json-schema.org/draft-07/schema#"
# Where the published schemas live (docs/schema.md, docs/schemastore-catalog.json).
SCHEMA_URL = "https://servelint.github.io/schemas/vllm-config/{version}.json"
LATEST_URL = "https://servelint.github.io/schemas/vllm-config/latest.json"
# The file names the schema is for without a modeline: the VS Code
# extension's yamlValidation and the SchemaStore entry.
FILE_MATCH = ("*.vllm.yaml", "*.vllm.yml", "vllm-config.yaml", "vllm-config.yml")

# Strings argparse converts, as JSON Schema patterns (ECMAScript regexes).
# int(): optional sign, digits with single underscores, surrounding blanks.
_INT = r"^\s*[+-]?\d+(_\d+)*\s*$"
# float(): the decimal forms (plus inf/nan, which no one writes in a config).
_FLOAT = r"^\s*[+-]?(\d+(_\d+)*(\.(\d+(_\d+)*)?)?|\.\d+(_\d+)*)([eE][+-]?\d+)?\s*$"
# human_readable_int (servelint.values mirrors vLLM's): a decimal suffix
# k/m/g/t may follow a decimal number, a binary one K/M/G/T only an integer.
_HUMAN_INT = r"^\s*(\d+(\.\d+)?[kmgt]|\d+[KMGT]|[+-]?\d+)\s*$"
_HUMAN_INT_OR_AUTO = r"^\s*(\d+(\.\d+)?[kmgt]|\d+[KMGT]|[+-]?\d+|[aA][uU][tT][oO])\s*$"

# vLLM reads the file with PyYAML (YAML 1.1), where these words are booleans
# too; an editor reading YAML 1.2 (yaml-language-server's default) sees
# strings.  ("true" in quotes is a string to both: vLLM then fails.)
_YAML11_TRUE = ["yes", "Yes", "YES", "on", "On", "ON"]
_YAML11_FALSE = ["no", "No", "NO", "off", "Off", "OFF"]

# Pydantic validates the JSON-valued options in lax mode: numbers may come
# as strings, booleans as these words or 0/1.
_LAX_BOOL_STRINGS = ["true", "false", "True", "False", "TRUE", "FALSE", "yes", "no", "on", "off",
                     "t", "f", "y", "n", "1", "0"]

# Choices that depend on the platform vLLM runs on: ``--mm-processor-device``
# adds ``current_platform.device_type`` unless it is "cpu"
# (vllm/engine/arg_utils.py, 0.28.0:1371, 0.33.0:1569).  The tables were
# generated on CpuPlatform, so they lack it.
_DEVICE_TYPE = {"cuda": "cuda", "rocm": "cuda", "tpu": "tpu", "xpu": "xpu", "cpu": None}
_PLATFORM_CHOICES = {"mm_processor_device"}

# yaml-language-server's hover shows the description of the first schema
# that matched the value, the alternative before the flag, and when it cannot
# tell the alternatives of an anyOf apart (no title, description or
# properties) it shows theirs joined.  So only the `false` alternative, which
# no other value matches, has one: the flag's help shows for every other value.
_DROPPED = "`false`: vLLM drops it, as if the key were not there."
_FALSE_DROPPED_VALUE = (
    "vLLM drops `false` from a --config file instead of passing it: this key does nothing. "
    "Remove it to keep the default."
)
_FALSE_DROPPED = (
    "vLLM drops `false` from a --config file instead of passing it (under `vllm serve`, "
    "load_config_file only writes --no-KEY when the top-level parser has it, and it has none "
    "of the serve options). To turn this off, use the negative key set to true{negative}."
)


def config_schema(version: str, target: str = "cuda") -> dict:
    """The JSON Schema (draft-07) of a ``--config`` file for one release.
    Raises ``knowledge.UnknownRelease``."""
    kn = knowledge.load(version)
    v = kn.version
    definitions: dict[str, Any] = {}
    properties: dict[str, Any] = {}
    patterns: dict[str, Any] = {}
    options = sorted((o for o in kn.options if _configurable(o)), key=lambda o: o.name)
    classes: dict[str, Any] = {}
    false_dropped = _false_dropped(v)
    for opt in options:
        value = _value_schema(opt, target, classes, false_dropped)
        doc = _describe(opt, v)
        definitions[opt.dest] = {**doc, **value}
        negatives = set(opt.negative or ())
        if negatives:
            definitions[opt.dest + "--negative"] = {
                **_describe(opt, v, negative=True),
                **_switch(None, false_dropped),
            }
        for s in opt.strings:
            if not s.startswith("--"):
                continue  # a short alias (-tp) is no config key: "--tp" is unrecognized
            key = s[2:]
            ref = opt.dest + "--negative" if s in negatives else opt.dest
            prop: dict[str, Any] = {"$ref": f"#/definitions/{ref}"}
            if s not in opt.visible:
                # Hidden from `vllm serve --help`: valid, not suggested.  (A
                # keyword beside $ref is lost when yaml-language-server
                # resolves it, hence the allOf.)
                prop = {"allOf": [prop], "doNotSuggest": True}
            properties[key] = prop
            name = _spellings(key, kn)
            patterns[f"^{name}$"] = {"$ref": f"#/definitions/{ref}"}
            if opt.json is not None and s not in negatives:
                patterns[f"^{name}\\..+$"] = {
                    "description": f"A key of `{s}`, given dotted: vLLM gathers the dotted keys into "
                                   "one JSON object (keys after the first dot keep their underscores).",
                }
    return {
        "$schema": DRAFT,
        "$id": SCHEMA_URL.format(version=v),
        "title": f"vLLM {v} --config file",
        "description": (
            f"A YAML file for `vllm serve --config FILE` (vLLM {v}): each key is a flag without its "
            "leading dashes. Generated by servelint from vLLM's own parser; see "
            "https://github.com/servelint/servelint/blob/main/docs/schema.md"
        ),
        "type": "object",
        "properties": properties,
        "patternProperties": patterns,
        "additionalProperties": False,
        "definitions": {**definitions, **classes},
        "x-servelint": {"vllmVersion": v, "target": target, "generatedFrom": kn.source.get("wheel")},
    }


def _configurable(opt) -> bool:
    """Options a config key can set: not the positional model, not --help,
    and not --config itself (vLLM expands one --config; a nested one is
    never read)."""
    return not opt.positional and opt.kind != "help" and opt.dest != "config" and any(
        s.startswith("--") for s in opt.strings
    )


# -- names --------------------------------------------------------------------


def _spellings(key: str, kn) -> str:
    """A regex (without anchors) of every key vLLM reads as ``--key``: ``_``
    or ``-`` between words, and the abbreviations argparse accepts in this
    release (a prefix no other long option starts with), nested so that
    each further character is optional: ``max[-_]model(?:[-_](?:l(?:e)?)?)?``
    then the full name."""
    shortest = _shortest_unique_prefix(key, kn)
    nested = ""
    for ch in reversed(key[shortest:]):
        nested = f"(?:{_dash(ch)}{nested})?"
    return _dash(key[:shortest]) + nested


def _shortest_unique_prefix(key: str, kn) -> int:
    """Length of the shortest prefix of ``key`` that only ``--key`` starts
    with among the release's long option strings; ``len(key)`` when none
    shorter is.  A prefix that another option starts with is ambiguous for
    argparse, and one that is another option is that option."""
    string = "--" + key
    for k in range(1, len(key)):
        if kn.with_prefix(string[: k + 2]) == [string]:
            return k
    return len(key)


def _dash(text: str) -> str:
    return "".join("[-_]" if ch in "-_" else re.escape(ch) for ch in text)


# -- values -------------------------------------------------------------------


def _switch(negative: str | None, false_dropped: bool) -> dict:
    """A switch: ``true`` passes the flag.  ``false`` passes nothing in the
    releases rule SL003 (config-false-dropped) covers: accepted, with the
    warning that it does nothing."""
    words = {"type": "string", "pattern": f"^({'|'.join(_YAML11_TRUE)})$",
             "patternErrorMessage": "A switch takes true (\"true\" in quotes is a string: vLLM rejects it)."}
    if not false_dropped:
        # (The pattern applies to strings only; no anyOf, see _DROPPED.)
        return {**words, "type": ["boolean", "string"], "pattern": f"^({'|'.join(_YAML11_TRUE + _YAML11_FALSE)})$"}
    hint = f" (`{negative}: true`)" if negative else ""
    return {"anyOf": [{"const": True}, words, _only([False, *_YAML11_FALSE])],
            **_warn_on_false(_FALSE_DROPPED.format(negative=hint))}


def _false_dropped(version: str) -> bool:
    from .rules import lookup

    rule = lookup("config-false-dropped")
    return rule is not None and rule().applies_to(version)


def _value_schema(opt, target: str, classes: dict, false_dropped: bool) -> dict:
    if opt.kind in ("bool", "store_true"):
        # The negative spelling to suggest: the visible one, else any (every
        # release has --no-x).
        negatives = sorted(opt.negative or (), key=lambda s: (s not in opt.visible, not s.startswith("--no-")))
        return _switch(negatives[0][2:] if negatives else None, false_dropped)
    item = _item_schema(opt, target, classes)
    if len(json.dumps(item)) > 200:
        # Written once, referenced by the one-value and the list alternative.
        classes[f"value:{opt.dest}"] = item
        item = {"$ref": f"#/definitions/value:{opt.dest}"}
    if opt.nargs in ("+", "*") or (opt.kind == "custom" and opt.nargs not in (None, 0)):
        # A list becomes --k a b c; a scalar is one value.
        alternatives = [item, {"type": "array", "items": item}]
    elif opt.nargs == "?":
        # `true` gives the flag alone, which stores its const.
        alternatives = [item, {"const": True}]
    else:
        # One value: a list of one passes it too (a longer one leaves words
        # argparse does not expect: "unrecognized arguments").
        alternatives = [item, {"type": "array", "maxItems": 1, "items": item}]
    if not false_dropped:
        return {"anyOf": alternatives}
    return {"anyOf": [*alternatives, _only([False])], **_warn_on_false(_FALSE_DROPPED_VALUE)}


def _only(values: list) -> dict:
    """Accepts exactly ``values`` and is never offered by completion:
    yaml-language-server suggests every ``const``/``enum`` of the
    alternatives, and `false` is no value to suggest for --dtype.  (A
    ``not`` of a ``not`` is that set; completion does not look inside.)"""
    return {"not": {"not": {"enum": values}}, "description": _DROPPED}


def _warn_on_false(message: str) -> dict:
    """The warning for `false`, outside the anyOf: a warning inside an
    alternative makes yaml-language-server take another one as the best
    match (and report that one's errors)."""
    return {"if": {"const": False}, "then": {"deprecationMessage": message}}


def _item_schema(opt, target: str, classes: dict) -> dict:
    t = opt.type or "str"
    nullable = False
    while t.startswith("optional(") and t.endswith(")"):
        # optional_type: the string "None" (what YAML null becomes) is None.
        t = t[len("optional("):-1]
        nullable = True
    schema = _typed(t, opt, target, classes)
    if nullable:
        schema = _or_null(schema)
    return schema


def _typed(t: str, opt, target: str, classes: dict) -> dict:
    choices = list(opt.choices) if opt.choices is not None else None
    if choices is not None and opt.dest in _PLATFORM_CHOICES:
        device = _DEVICE_TYPE.get(target)
        if device and device not in choices:
            choices.append(device)
    if t.startswith("dataclass_json(") or t in ("json", "parse(json)", "union_dict_and_str"):
        return _json_valued(t, opt, classes)
    if "lower()" in t and "replace" in t and choices is not None:
        # type=lambda s: s.lower().replace("-", "_"): choices are compared
        # after that rewrite, so any case and - or _ pass.
        return _loose_enum(choices)
    base = _SCALARS.get(t)
    if base is None:
        # A converter the table names but no schema type fits (a lambda, a
        # parser's own function): any scalar.
        base = {"type": ["string", "number"]}
    schema = dict(base)
    if choices is not None:
        return _enum(choices)
    if opt.metavar_choices:
        # Only listed in the help (Literal[...] | str): suggested, not enforced.
        schema = {"anyOf": [{"enum": list(opt.metavar_choices)}, schema]}
    _constrain(schema, opt.constraints)
    return schema


def _numeric(json_type: str, pattern: str) -> dict:
    return {"type": [json_type, "string"], "pattern": pattern}


_SCALARS = {
    "str": {"type": ["string", "number"]},
    "int": _numeric("integer", _INT),
    "float": _numeric("number", _FLOAT),
    "human_readable_int": _numeric("integer", _HUMAN_INT),
    "human_readable_int_or_auto": _numeric("integer", _HUMAN_INT_OR_AUTO),
}


def _or_null(schema: dict) -> dict:
    if "anyOf" in schema:
        return {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
    if "enum" in schema:
        return schema if None in schema["enum"] else {**schema, "enum": [*schema["enum"], None]}
    types = schema.get("type")
    if isinstance(types, str):
        return {**schema, "type": [types, "null"]}
    if isinstance(types, list) and "null" not in types:
        return {**schema, "type": [*types, "null"]}
    return schema


def _enum(choices: list) -> dict:
    """argparse's choices, plus the YAML scalars whose str() is one of them
    (``tensor-parallel-size: 2`` against string choices)."""
    values: list = []
    for c in choices:
        if not _among(c, values):
            values.append(c)
        if isinstance(c, str):
            alt = _yaml_twin(c)
            if alt is not None and not _among(alt, values):
                values.append(alt)
        elif isinstance(c, (int, float)) and not isinstance(c, bool):
            if str(c) not in values:
                values.append(str(c))
    return {"enum": values}


def _among(value, values: list) -> bool:
    """``value in values`` as JSON sees it: 1, 1.0 and true are different."""
    return any(type(v) is type(value) and v == value for v in values)


def _yaml_twin(text: str):
    """The number a YAML scalar spelled ``text`` loads as, whose str() is
    ``text`` again (so vLLM gets the same string)."""
    if re.fullmatch(r"-?\d+", text):
        n = int(text)
        return n if str(n) == text else None
    if re.fullmatch(r"-?\d+\.\d+", text):
        f = float(text)
        return f if str(f) == text else None
    return None


def _loose(choice: str) -> str:
    out = []
    for ch in str(choice):
        if ch.isalpha():
            out.append(f"[{ch.lower()}{ch.upper()}]")
        elif ch in "-_":
            out.append("[-_]")
        else:
            out.append(re.escape(ch))
    return "".join(out)


def _loose_enum(choices: list) -> dict:
    return {
        "type": "string",
        "pattern": "^(" + "|".join(_loose(c) for c in choices) + ")$",
        # Completion offers the canonical spellings.
        "examples": list(choices),
    }


def _constrain(schema: dict, constraints: dict | None) -> None:
    if not constraints:
        return
    names = {"ge": "minimum", "gt": "exclusiveMinimum", "le": "maximum", "lt": "exclusiveMaximum"}
    for k, v in constraints.items():
        if k in names and isinstance(v, (int, float)) and not isinstance(v, bool):
            schema[names[k]] = v


def _json_valued(t: str, opt, classes: dict) -> dict:
    """A JSON-valued option: a YAML mapping (vLLM passes it as JSON) or a
    string holding the JSON text (or, for union_dict_and_str, any string)."""
    text = {"type": "string"}
    info = opt.json
    if isinstance(opt.default, list) and t == "json":
        # A list-valued JSON option (--allowed-origins): a YAML list would
        # become several words, so only the JSON text works.
        return {"type": "string", "examples": [json.dumps(opt.default)]}
    mapping: dict[str, Any] = {"type": "object"}
    if info is not None and info.get("fields"):
        mapping.update(_fields_schema(info["fields"], info.get("kind") == "dataclass", classes))
    return {"anyOf": [mapping, text]}


def _fields_schema(fields: dict, strict: bool, classes: dict) -> dict:
    props: dict[str, Any] = {}
    for name, entry in fields.items():
        if not isinstance(entry, dict):
            continue
        sub = _annotation(entry.get("type") or "", entry, classes)
        sub.update(_help(entry.get("help"), []))
        default = entry.get("default")
        if _plain(default):
            sub["default"] = default
        if entry.get("init") is False or "SkipValidation" in (entry.get("type") or ""):
            # Not an __init__ argument, or an object vLLM fills in itself
            # (SkipValidation): accepted, never suggested.
            sub = {"doNotSuggest": True, **({k: sub[k] for k in ("description", "markdownDescription") if k in sub})}
        props[name] = sub
    out: dict[str, Any] = {"properties": props}
    if strict:
        # Dataclass configs are validated while parsing; unknown keys fail.
        out["additionalProperties"] = False
    return out


def _annotation(annotation: str, entry: dict, classes: dict) -> dict:
    """A schema for a config field from its Python annotation, as pydantic
    (lax mode) accepts a value; unknown classes give no constraint.  A
    nested dataclass is one definition shared by every field of its class."""
    choices = entry.get("choices")
    if entry.get("fields") and "SkipValidation" not in annotation:
        cls = entry.get("dataclass") or annotation
        key = "class:" + cls
        if key not in classes:
            classes[key] = {}  # placed first: a class can nest itself
            classes[key] = {"type": "object", **_fields_schema(entry["fields"], True, classes)}
        nested = {"$ref": f"#/definitions/{key}"}
        return {"anyOf": [nested, {"type": "null"}]} if _optional(annotation) else nested
    if choices:
        schema = _enum(list(choices))
        if _optional(annotation):
            schema = _or_null(schema)
        if _also_str(annotation):
            schema = {"anyOf": [schema, {"type": "string"}]}
        return schema
    parts = [p.strip() for p in _split_union(_unwrap_optional(annotation))]
    alternatives: list[dict] = []
    for p in parts:
        s = _simple_annotation(p)
        if s is None:
            return {}  # one part we cannot describe: accept anything
        if s not in alternatives:
            alternatives.append(s)
    if not alternatives:
        return {}
    if _optional(annotation) and {"type": "null"} not in alternatives:
        alternatives.append({"type": "null"})
    _constrain(alternatives[0], entry.get("constraints"))
    return alternatives[0] if len(alternatives) == 1 else {"anyOf": alternatives}


def _simple_annotation(p: str) -> dict | None:
    if p in ("None", "NoneType"):
        return {"type": "null"}
    if p == "bool":
        return {"anyOf": [{"type": "boolean"}, {"enum": _LAX_BOOL_STRINGS + [0, 1]}]}
    if p == "int":
        return _numeric("integer", _INT)
    if p == "float":
        return _numeric("number", _FLOAT)
    if p == "str":
        return {"type": "string"}
    if p.startswith(("list[", "set[", "tuple[")) or p in ("list", "set"):
        return {"type": "array"}
    if p.startswith("dict[") or p == "dict":
        return {"type": "object"}
    return None


def _optional(annotation: str) -> bool:
    a = annotation.replace(" ", "")
    return a.startswith("Optional[") or "|None" in a or "None|" in a or ",NoneType]" in a


def _also_str(annotation: str) -> bool:
    a = annotation.replace(" ", "")
    return a.startswith("Union[str,") or ",str]" in a or "|str" in a or "str|" in a


def _unwrap_optional(annotation: str) -> str:
    a = annotation.strip()
    if a.startswith("Optional[") and a.endswith("]"):
        return a[len("Optional["):-1] + " | None"
    if a.startswith("Union[") and a.endswith("]"):
        return " | ".join(_split_top(a[len("Union["):-1], ","))
    return a


def _split_union(annotation: str) -> list[str]:
    return _split_top(annotation, "|")


def _split_top(text: str, sep: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _plain(value) -> bool:
    if value is None or isinstance(value, (bool, int, float)):
        return value is not None
    if isinstance(value, str):
        return value != "==SUPPRESS=="
    if isinstance(value, list):
        return all(isinstance(x, (str, int, float, bool)) for x in value)
    return False


# -- documentation ------------------------------------------------------------


def _help(text: str | None, facts: list[str]) -> dict:
    """``description`` (the help's first paragraph, for any JSON Schema
    tool) and ``markdownDescription`` (all of it and the facts, for hovers)."""
    text = (text or "").replace("%%", "%").strip()
    full = "\n\n".join([p for p in (text, " ".join(facts)) if p])
    if not full:
        return {}
    first = text.split("\n\n", 1)[0].replace("\n", " ") if text else full
    return {"description": first, "markdownDescription": full}


def _describe(opt, version: str, negative: bool = False) -> dict:
    name = opt.name
    if negative:
        text = f"Turns `{name[2:]}` off: `true` here is what `{name[2:]}: false` would mean if vLLM passed it on."
        return {"description": text, "markdownDescription": text}
    facts = []
    if _plain(opt.default):
        facts.append(f"Default: `{json.dumps(opt.default)}`.")
    spellings = [s for s in opt.visible if s != name and s.startswith("--")]
    if spellings:
        facts.append("Also: " + ", ".join(f"`{s[2:]}`" for s in spellings) + ".")
    facts.append(f"vLLM {version} `{name}`.")
    out: dict[str, Any] = _help(opt.help, facts)
    if _plain(opt.default) and opt.kind not in ("bool", "store_true"):
        out["default"] = opt.default
    if opt.deprecated:
        out["deprecated"] = True
        out["deprecationMessage"] = str(opt.deprecated)
    return out


# -- the `servelint schema` command ---------------------------------------------


def command(args) -> int:
    """``servelint schema``: print one release's schema, or write every
    release's (``--output-dir``: ``<release>.json`` and ``latest.json``, the
    files docs/schemastore-catalog.json points at)."""
    import os
    import sys

    if args.catalog:
        sys.stdout.write(json.dumps(catalog_entry(), indent=2) + "\n")
        return 0
    if args.output_dir:
        os.makedirs(args.output_dir, exist_ok=True)
        for v in knowledge.RELEASES:
            _write(os.path.join(args.output_dir, f"{v}.json"), config_schema(v, args.target))
        latest = config_schema(knowledge.NEWEST, args.target)
        latest["$id"] = LATEST_URL
        _write(os.path.join(args.output_dir, "latest.json"), latest)
        print(f"servelint: wrote {len(knowledge.RELEASES) + 1} schemas to {args.output_dir}", file=sys.stderr)
        return 0
    version = args.vllm_version or knowledge.NEWEST
    try:
        schema = config_schema(version, args.target)
    except knowledge.UnknownRelease as exc:
        print(f"servelint: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(_dumps(schema, compact=args.compact))
    return 0


def catalog_entry() -> dict:
    """The SchemaStore catalog entry (docs/schemastore-catalog.json): one
    schema per release in ``versions``, the newest as ``url``.  SchemaStore
    rejects generic names like config.yaml, hence the specific patterns and
    the modeline for other names."""
    return {
        "name": "vLLM --config file",
        "description": "YAML file of `vllm serve --config FILE` options (vLLM inference server), generated per "
                       "vLLM release by servelint",
        "fileMatch": list(FILE_MATCH),
        "url": LATEST_URL,
        "versions": {v: SCHEMA_URL.format(version=v) for v in reversed(knowledge.RELEASES)},
    }


def _dumps(schema: dict, compact: bool = True) -> str:
    if compact:
        return json.dumps(schema, separators=(",", ":"), ensure_ascii=False) + "\n"
    return json.dumps(schema, indent=1, ensure_ascii=False) + "\n"


def _write(path: str, schema: dict) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(_dumps(schema))
