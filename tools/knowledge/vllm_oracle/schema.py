"""Describe a vLLM argparse parser as JSON: every action, its strings, type,
choices, default, help, the config-class field behind it and file:line.

Origin: a copy of ``py/dump_schema.py`` of the shared vllm-oracle tool
(``/work/shared/tools/vllm-oracle``, sha256 26edf759...e86e895bfa), turned
into a library so that ``tools/knowledge/dump_release.py`` can describe the
parser of every entry point of any release from 0.6.0 on (the original
builds only the ``serve`` sub-command of releases that have
``vllm.entrypoints.cli``).  Changes from the original: ``describe(parser)``
instead of ``main()``; the observers are installed by ``install()`` (called
before vLLM is imported) rather than at import; fallbacks for releases
without ``get_kwargs`` / ``get_attr_docs``.  Nothing here changes or stubs
vLLM code: the two observers return the originals' results unchanged.
"""

from __future__ import annotations

import os

import argparse
import dataclasses
import enum
import inspect
import re
import typing

# ---------------------------------------------------------------------------
# Observer 1: where was each option registered?
_orig_add_argument = argparse._ActionsContainer.add_argument
_ACTION_SITE: dict[int, str] = {}
_VLLM_ROOT: str | None = None


def _find_vllm_root() -> str | None:
    """Directory of the vllm package that will be imported (not imported yet)."""
    import importlib.util
    try:
        spec = importlib.util.find_spec("vllm")
    except Exception:
        return None
    if spec is None or not spec.origin:
        return None
    return os.path.dirname(os.path.abspath(spec.origin))


# Frames that are not the site of an option: argparse, FlexibleArgumentParser's
# own add_argument wrapper (vllm/utils.py or vllm/utils/__init__.py before
# vllm/utils/argparse_utils.py existed), and this tool.
_SKIP_FILES = ("argparse.py", "argparse_utils.py", "schema.py", "dump_release.py")


def _site() -> str | None:
    for fr in inspect.stack()[2:]:
        fn = fr.filename
        if fn.endswith(_SKIP_FILES):
            continue
        if fn.endswith(("vllm/utils.py", "vllm/utils/__init__.py")) and fr.function == "add_argument":
            continue
        afn = os.path.abspath(fn)
        if _VLLM_ROOT and afn.startswith(_VLLM_ROOT + os.sep):
            return f"vllm/{os.path.relpath(afn, _VLLM_ROOT)}:{fr.lineno}"
        if "/vllm/" in fn:
            rel = fn[fn.rindex("/vllm/") + 1:]
            return f"{rel}:{fr.lineno}"
        return f"{os.path.basename(fn)}:{fr.lineno}"
    return None


_PENDING_KWARGS: list[tuple[dict, dict]] = []


def _add_argument(self, *args, **kwargs):
    action = _orig_add_argument(self, *args, **kwargs)
    try:
        _ACTION_SITE[id(action)] = _site()
        _PENDING_KWARGS.append((action, dict(kwargs)))
    except Exception:  # pragma: no cover
        pass
    return action


# Observer 2: which config class / field did each kwargs dict come from?
_KW_ORIGIN: list[tuple[type, str, dict]] = []  # (cls, field, inner kwargs dict)
VLLM_VERSION = "unknown"
arg_utils = None
get_attr_docs = None


def install() -> None:
    """Install observer 1, import vLLM, install observer 2.  Observer 2
    needs ``arg_utils.get_kwargs`` (releases that build options from config
    dataclasses); older releases call ``add_argument`` directly and their
    options get no config-class origin."""
    global _VLLM_ROOT, VLLM_VERSION, arg_utils, get_attr_docs
    _VLLM_ROOT = _find_vllm_root()
    argparse._ActionsContainer.add_argument = _add_argument
    import vllm
    VLLM_VERSION = getattr(vllm, "__version__", "unknown")
    import vllm.engine.arg_utils as _arg_utils
    arg_utils = _arg_utils
    orig = getattr(arg_utils, "get_kwargs", None)
    if orig is not None:
        def _get_kwargs(cls, *a, **k):
            res = orig(cls, *a, **k)
            for name, inner in res.items():
                if isinstance(inner, dict):
                    _KW_ORIGIN.append((cls, name, inner))
            return res
        arg_utils.get_kwargs = _get_kwargs
    for mod, name in (("vllm.config.utils", "get_attr_docs"), ("vllm.config", "get_attr_docs")):
        try:
            get_attr_docs = getattr(__import__(mod, fromlist=[name]), name)
            break
        except (ImportError, AttributeError):
            continue


# ---------------------------------------------------------------------------
def jsonable(v, depth=0):
    """Best-effort JSON-safe rendering of a default value."""
    if depth > 6:
        return repr(v)
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            return repr(v)
        return v
    if isinstance(v, enum.Enum):
        return jsonable(v.value, depth + 1) if isinstance(
            v.value, (str, int, float)) else v.name
    if isinstance(v, (list, tuple, set, frozenset)):
        items = list(v)
        if isinstance(v, (set, frozenset)):
            try:
                items = sorted(items)
            except TypeError:
                pass
        return [jsonable(x, depth + 1) for x in items]
    if isinstance(v, dict):
        return {str(k): jsonable(x, depth + 1) for k, x in v.items()}
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        out = {}
        for f in dataclasses.fields(v):
            try:
                out[f.name] = jsonable(getattr(v, f.name), depth + 1)
            except Exception as e:  # pragma: no cover
                out[f.name] = f"<unreadable: {e}>"
        return {"__dataclass__": type(v).__name__, **out}
    if callable(v):
        return f"<callable {getattr(v, '__qualname__', repr(v))}>"
    return repr(v)


def describe_type(fn, depth=0) -> str | None:
    """Human-readable name for an argparse ``type=`` callable."""
    if fn is None:
        return None
    if depth > 5:
        return "..."
    if isinstance(fn, type):
        return fn.__name__
    name = getattr(fn, "__name__", None) or repr(fn)
    cells = {}
    code = getattr(fn, "__code__", None)
    if code is not None and fn.__closure__:
        for var, cell in zip(code.co_freevars, fn.__closure__):
            try:
                cells[var] = cell.cell_contents
            except ValueError:
                pass
    if name == "_optional_type":
        return f"optional({describe_type(cells.get('return_type'), depth + 1)})"
    if name == "_parse_type":
        return f"parse({describe_type(cells.get('return_type'), depth + 1)})"
    if name == "parse_dataclass":
        cls = (fn.__defaults__ or (None,))[0] or cells.get("dataclass_cls")
        return f"dataclass_json({getattr(cls, '__name__', cls)})"
    if name == "loads" and getattr(fn, "__module__", "") == "json":
        return "json"
    if name == "<lambda>":
        try:
            src = inspect.getsource(fn).strip()
            src = src[src.index("lambda"):].rstrip(",) ")
        except Exception:
            src = "lambda"
        return f"lambda: {src}"
    mod = getattr(fn, "__module__", "") or ""
    if mod.startswith("vllm"):
        return f"{name}"
    return name


def dataclass_of_type(fn, depth=0):
    """Return the dataclass a ``parse_dataclass`` type callable validates."""
    if fn is None or depth > 5:
        return None
    if getattr(fn, "__name__", "") == "parse_dataclass":
        return (fn.__defaults__ or (None,))[0]
    code = getattr(fn, "__code__", None)
    if code is not None and fn.__closure__:
        for var, cell in zip(code.co_freevars, fn.__closure__):
            try:
                c = cell.cell_contents
            except ValueError:
                continue
            if callable(c):
                r = dataclass_of_type(c, depth + 1)
                if r is not None:
                    return r
    return None


def type_contains_json(fn, depth=0) -> str | None:
    """'dataclass' | 'dict' | 'dict-or-str' | None."""
    if fn is None or depth > 5:
        return None
    name = getattr(fn, "__name__", "")
    if name == "parse_dataclass":
        return "dataclass"
    if name == "union_dict_and_str":
        return "dict-or-str"
    if name == "loads" and getattr(fn, "__module__", "") == "json":
        return "dict"
    code = getattr(fn, "__code__", None)
    if code is not None and fn.__closure__:
        for var, cell in zip(code.co_freevars, fn.__closure__):
            try:
                c = cell.cell_contents
            except ValueError:
                continue
            if callable(c):
                r = type_contains_json(c, depth + 1)
                if r:
                    return r
    return None


def type_str(t) -> str:
    if isinstance(t, str):
        return t
    if isinstance(t, type) and not typing.get_args(t):
        return t.__name__
    s = repr(t)
    for prefix in ("typing.", "vllm.config.", "collections.abc."):
        s = s.replace(prefix, "")
    return s


def resolved_hints(cls) -> dict:
    try:
        return typing.get_type_hints(cls, include_extras=True)
    except Exception:
        return {}


def find_dataclasses_in_type(t, seen=None) -> list:
    """Dataclasses mentioned in a (possibly Union/Optional/Annotated) hint."""
    out = []
    if t is None:
        return out
    if dataclasses.is_dataclass(t) and isinstance(t, type):
        return [t]
    for a in typing.get_args(t):
        if a is type(None):
            continue
        out.extend(find_dataclasses_in_type(a))
    return out


def literal_choices(t):
    choices = []
    origin = typing.get_origin(t)
    if origin is typing.Literal:
        return list(typing.get_args(t))
    for a in typing.get_args(t):
        choices.extend(literal_choices(a) or [])
    if isinstance(t, type) and issubclass(t, enum.Enum):
        return [m.value if isinstance(m.value, (str, int)) else m.name
                for m in t]
    return choices


def pydantic_constraints(field: dataclasses.Field) -> dict:
    """Extract pydantic Field(...) constraints (gt, ge, le, ...) if any."""
    out = {}
    candidates = [field.default]
    try:
        from pydantic.fields import FieldInfo
    except Exception:  # pragma: no cover
        return out
    hint = field.type
    if typing.get_origin(hint) is typing.Annotated:
        candidates.extend(typing.get_args(hint)[1:])
    for c in candidates:
        meta = []
        if isinstance(c, FieldInfo):
            meta = list(c.metadata)
        elif c is not None and type(c).__module__.startswith("annotated_types"):
            meta = [c]
        for m in meta:
            for attr in ("gt", "ge", "lt", "le", "multiple_of", "min_length",
                         "max_length", "pattern"):
                v = getattr(m, attr, None)
                if v is not None:
                    out[attr] = jsonable(v)
    return out


def field_default(field: dataclasses.Field):
    try:
        from pydantic.fields import FieldInfo
    except Exception:  # pragma: no cover
        FieldInfo = ()  # type: ignore
    d = field.default
    if isinstance(d, FieldInfo):
        if d.default_factory is not None:
            try:
                return jsonable(d.default_factory()), "factory"
            except Exception as e:
                return f"<factory {getattr(d.default_factory, '__name__', '?')}: {type(e).__name__}>", "factory"
        return jsonable(d.default), "value"
    if d is not dataclasses.MISSING:
        return jsonable(d), "value"
    if field.default_factory is not dataclasses.MISSING:  # type: ignore
        try:
            return jsonable(field.default_factory()), "factory"  # type: ignore
        except Exception as e:
            return f"<factory: {type(e).__name__}: {e}>", "factory"
    return None, "required"


_DOCS_CACHE: dict = {}


def docs_for(cls) -> dict:
    if cls not in _DOCS_CACHE:
        try:
            _DOCS_CACHE[cls] = get_attr_docs(cls) if get_attr_docs else {}
        except Exception:
            _DOCS_CACHE[cls] = {}
    return _DOCS_CACHE[cls]


def nested_fields(cls, depth=0, max_depth=3, stack=()) -> dict:
    """Describe the fields of a config dataclass (keys of its JSON form)."""
    out = {}
    if cls in stack:
        return {"__recursive__": cls.__name__}
    hints = resolved_hints(cls)
    docs = docs_for(cls)
    for f in dataclasses.fields(cls):
        hint = hints.get(f.name, f.type)
        default, default_kind = field_default(f)
        entry = {
            "type": type_str(hint),
            "default": default,
            "default_kind": default_kind,
            "init": f.init,
            "help": docs.get(f.name, "").strip() or None,
        }
        ch = literal_choices(hint)
        if ch:
            entry["choices"] = jsonable(ch)
        cons = pydantic_constraints(f)
        if cons:
            entry["constraints"] = cons
        sub = find_dataclasses_in_type(hint)
        if sub:
            entry["dataclass"] = f"{sub[0].__module__}.{sub[0].__qualname__}"
            if depth + 1 < max_depth:
                entry["fields"] = nested_fields(sub[0], depth + 1, max_depth,
                                                stack + (cls,))
        out[f.name] = entry
    return out


def action_kind(action) -> str:
    cls = type(action)
    mapping = {
        argparse._StoreAction: "store",
        argparse._StoreTrueAction: "store_true",
        argparse._StoreFalseAction: "store_false",
        argparse._StoreConstAction: "store_const",
        argparse._AppendAction: "append",
        argparse._AppendConstAction: "append_const",
        argparse._CountAction: "count",
        argparse._HelpAction: "help",
        argparse._VersionAction: "version",
        argparse.BooleanOptionalAction: "BooleanOptionalAction",
    }
    if cls in mapping:
        return mapping[cls]
    for base in cls.__mro__[1:]:
        if base in mapping:
            return f"{cls.__name__}({mapping[base]})"
    return cls.__name__


def match_origin(action, kwargs):
    """Find (cls, field) whose get_kwargs() dict produced this action."""
    exact = [(c, n) for (c, n, inner) in _KW_ORIGIN
             if _safe_eq(inner, kwargs)]
    if exact:
        for c, n in exact:
            if n == action.dest:
                return c, n, "exact"
        if len(exact) == 1:
            return exact[0][0], exact[0][1], "exact"
        return exact[-1][0], exact[-1][1], "exact-ambiguous"
    # kwargs may have been copied & modified (e.g. {**kw, "default": None})
    help_ = kwargs.get("help")
    if help_:
        by_help = [(c, n) for (c, n, inner) in _KW_ORIGIN
                   if inner.get("help") == help_]
        for c, n in by_help:
            if n == action.dest:
                return c, n, "help+dest"
        if len(by_help) == 1:
            return by_help[0][0], by_help[0][1], "help"
    same_name = [(c, n) for (c, n, inner) in _KW_ORIGIN if n == action.dest]
    if same_name:
        c, n = same_name[-1]
        return c, n, "dest-name-only"
    return None, None, None


def _safe_eq(a, b):
    try:
        if set(a) != set(b):
            return False
        for k in a:
            x, y = a[k], b[k]
            if x is y:
                continue
            if callable(x) or callable(y):
                # distinct closures -> compare their description
                if describe_type(x) != describe_type(y):
                    return False
                continue
            if x != y:
                return False
        return True
    except Exception:
        return False


_DEPRECATION_PATTERNS = [
    r"\bis deprecated\b", r"\bare deprecated\b", r"\bDeprecated:",
    r"\[deprecated\]", r"\bdeprecated and\b", r"\bdeprecated in favou?r\b",
    r"\bdeprecated since\b", r"\bhas been deprecated\b",
]


def deprecation_note(help_text: str | None) -> str | None:
    """Return the sentence of the help text announcing a deprecation of the
    option itself (heuristic; 'will be deprecated' is not counted)."""
    if not help_text:
        return None
    flat = " ".join(help_text.split())
    for sent in re.split(r"(?<=[.!?])\s+(?=[A-Z`\-\[(])", flat):
        if any(re.search(p, sent, flags=re.I) for p in _DEPRECATION_PATTERNS):
            return sent.strip()
    return None


_ENGINE_ARGS_TYPES: dict = {}


def _collect_engine_args_types():
    """Type annotations of EngineArgs / AsyncEngineArgs / FrontendArgs fields,
    keyed by field name (= argparse dest)."""
    classes = [getattr(arg_utils, "AsyncEngineArgs", None),
               getattr(arg_utils, "EngineArgs", None)]
    for mod in ("vllm.entrypoints.common.cli_args",
                "vllm.entrypoints.openai.cli_args"):
        try:
            m = __import__(mod, fromlist=["FrontendArgs"])
            classes.append(getattr(m, "FrontendArgs", None))
        except Exception:
            pass
    for cls in classes:
        if cls is None or not dataclasses.is_dataclass(cls):
            continue
        hints = resolved_hints(cls)
        for f in dataclasses.fields(cls):
            _ENGINE_ARGS_TYPES.setdefault(f.name, type_str(hints.get(f.name, f.type)))


def describe(serve) -> tuple[list[dict], list[dict]]:
    """(options, groups) of one argparse parser, as the original dumper
    wrote them for the ``serve`` sub-command."""
    if not _ENGINE_ARGS_TYPES:
        _collect_engine_args_types()

    # all option strings (incl. hidden aliases) that map to each action
    strings_for: dict[int, list[str]] = {}
    for opt, act in serve._option_string_actions.items():
        strings_for.setdefault(id(act), []).append(opt)

    deprecated_set = set(getattr(serve, "_deprecated", set()) or set())
    kwargs_for = {id(a): kw for (a, kw) in _PENDING_KWARGS}

    options = []
    groups = []
    for group in serve._action_groups:
        groups.append({
            "title": group.title,
            "description": (group.description or "").strip() or None,
            "num_options": len(group._group_actions),
        })
        for action in group._group_actions:
            all_strings = sorted(strings_for.get(id(action), []),
                                 key=lambda s: (not s.startswith("--"), s))
            visible = list(action.option_strings)
            kw = kwargs_for.get(id(action), {})
            cls, fname, match = match_origin(action, kw)
            src = None
            if cls is not None and not dataclasses.is_dataclass(cls):
                cls = None
            json_info = None
            if cls is not None:
                f = next((f for f in dataclasses.fields(cls)
                          if f.name == fname), None)
                hint = resolved_hints(cls).get(fname, f.type if f else None)
                src = {
                    "config_class": f"{cls.__module__}.{cls.__qualname__}",
                    "field": fname,
                    "field_type": type_str(hint) if hint is not None else None,
                    "match": match,
                }
                if f is not None:
                    cons = pydantic_constraints(f)
                    if cons:
                        src["constraints"] = cons
                    fdef, fkind = field_default(f)
                    src["field_default"] = fdef
                fch = literal_choices(hint) if hint is not None else []
                if fch:
                    src["field_choices"] = jsonable(fch)
            jkind = type_contains_json(action.type)
            dc = dataclass_of_type(action.type)
            if dc is None and src is not None and jkind:
                dcs = find_dataclasses_in_type(
                    resolved_hints(cls).get(fname))
                dc = dcs[0] if dcs else None
            if jkind:
                json_info = {
                    "accepts_json": True,
                    "kind": jkind,
                    "validated_at_parse_time": jkind == "dataclass",
                    "dataclass": (f"{dc.__module__}.{dc.__qualname__}"
                                  if dc is not None else None),
                    "dotted_keys_supported": True,
                    "fields": nested_fields(dc) if dc is not None else None,
                }
            help_text = action.help if action.help is not argparse.SUPPRESS \
                else None
            ea_type = _ENGINE_ARGS_TYPES.get(action.dest)
            is_deprecated = (action in deprecated_set
                             or bool(getattr(action, "deprecated", False)))
            dep_note = deprecation_note(help_text)
            entry = {
                "option_strings": all_strings,
                "visible_option_strings": visible,
                "hidden_option_strings": sorted(
                    set(all_strings) - set(visible)),
                "negative_option_strings": sorted(
                    getattr(action, "negative_option_strings", None)
                    or [s for s in all_strings if s.startswith("--no-")]
                ) if isinstance(action, argparse.BooleanOptionalAction) else [],
                "positional": not action.option_strings,
                "dest": action.dest,
                "action": action_kind(action),
                "action_class": f"{type(action).__module__}.{type(action).__qualname__}",
                "nargs": action.nargs,
                "takes_value": action.nargs != 0,
                "const": jsonable(action.const),
                "type": describe_type(action.type),
                "choices": jsonable(list(action.choices))
                if action.choices is not None else None,
                "metavar": jsonable(action.metavar),
                "default": jsonable(action.default),
                "required": action.required,
                "help": help_text,
                "help_suppressed": action.help is argparse.SUPPRESS,
                "deprecated": is_deprecated or bool(dep_note),
                "deprecated_kwarg": is_deprecated,
                "deprecation_note": dep_note,
                "group": group.title,
                "source": src,
                "engine_args_field_type": ea_type,
                "defined_at": _ACTION_SITE.get(id(action)),
                "human_readable_int": describe_type(action.type) is not None
                and "human_readable_int" in describe_type(action.type),
                "json": json_info,
            }
            options.append(entry)
    return options, groups


def platform_name() -> str:
    from vllm import platforms
    try:
        return type(platforms.current_platform).__name__
    except Exception as e:
        return f"<error {e}>"
