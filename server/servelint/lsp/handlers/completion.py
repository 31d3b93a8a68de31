"""Completion: flag names, their choices, and keys of JSON-valued flags,
all from the knowledge of the release the engine chose for the launch.

Where the cursor is comes from the engine's reading of the launch
(``Invocation.flag_at``): on a flag's name, in one of its values, or right
after a flag that still needs a value.  The one case the engine cannot read
is a ``--config`` YAML file while a new key is being typed (``max-mo`` with
no colon yet is not valid YAML); there the release of the file's last good
reading is used.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable

from lsprotocol import types

from ... import knowledge
from ...argv import Flag, primary_string
from ...model import Word
from ...text import SourceText, Span
from .. import convert
from .guard import guard

if TYPE_CHECKING:  # pragma: no cover
    from ..server import ServelintServer

_JSON_KEY = re.compile(r'("?)([A-Za-z0-9_]*)$')
_YAML_KEY = re.compile(r"^([ \t]*)([A-Za-z0-9_-]*)$")


class _Items:
    """Builds items within what the client says it can show."""

    def __init__(self, ls: "ServelintServer") -> None:
        td = ls.client_capabilities.text_document
        item = td.completion.completion_item if td and td.completion and td.completion.completion_item else None
        formats = item.documentation_format if item and item.documentation_format else []
        self.markdown = types.MarkupKind.Markdown in formats
        tags = item.tag_support.value_set if item and item.tag_support else []
        self.tags = types.CompletionItemTag.Deprecated in tags
        self.deprecated_field = bool(item and item.deprecated_support)

    def make(self, label: str, rng: types.Range, *, kind: types.CompletionItemKind, detail: str | None = None,
             doc: str | None = None, deprecated: bool = False, sort: str | None = None,
             new_text: str | None = None) -> types.CompletionItem:
        documentation = None
        if doc:
            documentation = types.MarkupContent(
                kind=types.MarkupKind.Markdown if self.markdown else types.MarkupKind.PlainText, value=doc
            )
        return types.CompletionItem(
            label=label,
            kind=kind,
            detail=detail,
            documentation=documentation,
            tags=[types.CompletionItemTag.Deprecated] if deprecated and self.tags else None,
            deprecated=True if deprecated and not self.tags and self.deprecated_field else None,
            sort_text=sort,
            filter_text=label,
            text_edit=types.TextEdit(range=rng, new_text=new_text if new_text is not None else label),
        )


def _detail(option) -> str | None:
    if option.kind in ("bool", "store_true"):
        return "switch"
    return option.type or option.kind


def _flag_items(items: _Items, kn, rng: types.Range, *, yaml_key: bool) -> list[types.CompletionItem]:
    out = []
    for option in kn.options:
        if option.positional or option.kind == "help":
            continue
        primary = primary_string(option)
        for s in option.visible:
            if not s.startswith("--"):
                continue
            label = s[2:] if yaml_key else s
            rank = "0" if s == primary else "1"
            out.append(items.make(
                label, rng, kind=types.CompletionItemKind.Property, detail=_detail(option),
                doc=option.help, deprecated=bool(option.deprecated), sort=f"{rank}{label}",
            ))
    return out


def _field_items(items: _Items, fields: dict, rng: types.Range, prefix: str = "",
                 quote: bool = False) -> list[types.CompletionItem]:
    out = []
    for name, spec in fields.items():
        spec = spec if isinstance(spec, dict) else {}
        label = prefix + name
        out.append(items.make(
            label, rng, kind=types.CompletionItemKind.Field, detail=spec.get("type"),
            doc=spec.get("help"), new_text=f'"{name}"' if quote else label,
        ))
    return out


def _value_items(items: _Items, option, rng: types.Range) -> list[types.CompletionItem]:
    values = option.choices or option.metavar_choices or []
    return [
        items.make(str(v), rng, kind=types.CompletionItemKind.EnumMember, detail=primary_string(option))
        for v in values
    ]


def _range(src: SourceText, start: int, end: int) -> types.Range:
    return convert.lsp_range(src, Span(start, max(start, end)))


def _json_fields(option) -> dict | None:
    spec = option.json if option is not None else None
    fields = spec.get("fields") if spec else None
    return fields if isinstance(fields, dict) and fields else None


def _in_value(items: _Items, src: SourceText, flag: Flag, word: Word, offset: int) -> list[types.CompletionItem]:
    option = flag.option
    if option is None:
        return []
    if not word.text or len(word.span) == 0:
        return _value_items(items, option, _range(src, offset, offset))
    start = word.at(0)
    i = next((k for k in range(len(word.text) + 1) if word.at(k) >= offset), len(word.text))
    before = word.text[:i]
    fields = _json_fields(option)
    if fields is not None and before.lstrip().startswith("{"):
        m = _JSON_KEY.search(before)
        partial = m.group(2)
        return _field_items(items, fields, _range(src, offset - len(partial), offset), quote=not m.group(1))
    if start > offset:
        return []
    return _value_items(items, option, _range(src, start, offset))


def _on_name(items: _Items, src: SourceText, kn, flag: Flag, offset: int) -> list[types.CompletionItem]:
    start = flag.name_span.start
    typed = src.text[start:offset]
    yaml_key = flag.word is not None and flag.word.role == "config-key"
    if "." in typed and flag.option is not None:
        fields = _json_fields(flag.option)
        if fields is None:
            return []
        base = typed[: typed.index(".") + 1]
        return _field_items(items, fields, _range(src, start, offset), prefix=base)
    return _flag_items(items, kn, _range(src, start, offset), yaml_key=yaml_key)


def _after_name(src: SourceText, flags: Iterable[Flag], offset: int) -> Flag | None:
    """A flag that still needs a value, with only a separator before the cursor."""
    for flag in flags:
        if flag.option is None or not flag.option.takes_value or flag.values and len(flag.values[0].span):
            continue
        if flag.word is not None and flag.word.path is not None:
            continue
        between = src.text[flag.name_span.end:offset]
        if between in (" ", "=", ": ", "\t") or (between.strip() == ":" and "\n" not in between):
            return flag
    return None


async def complete(ls: "ServelintServer", params: types.CompletionParams) -> types.CompletionList | None:
    uri = params.text_document.uri
    st = await ls.session.lint(uri, publish=False)
    if st is None or st.result is None:
        return None
    result = st.result
    items = _Items(ls)
    src = ls.session.source(st, result)
    offset = src.offset_at(params.position.line, params.position.character)
    found: list[types.CompletionItem] = []
    for lr in result.launches:
        inv = lr.invocation
        if inv is None:
            continue
        if not (lr.launch.span.start <= offset <= lr.launch.span.end + 1) and inv.flag_at(offset) is None:
            continue
        kn = inv.knowledge
        hit = inv.flag_at(offset)
        if hit is not None:
            flag, word = hit
            found = _on_name(items, src, kn, flag, offset) if word is None else _in_value(items, src, flag, word, offset)
        else:
            flag = _after_name(src, inv.flags, offset)
            if flag is not None:
                found = _value_items(items, flag.option, _range(src, offset, offset))
        if found:
            break
    if not found and not result.launches and st.config_release:
        # A --config file with a half-typed key does not parse; complete the key.
        line, _ = src.position(offset)
        head = src.text[src.line_start(line):offset]
        m = _YAML_KEY.match(head)
        if m:
            kn = knowledge.load(st.config_release)
            found = _flag_items(items, kn, _range(src, offset - len(m.group(2)), offset), yaml_key=True)
    if not found:
        return None
    return types.CompletionList(is_incomplete=False, items=found)


@guard()
async def on_completion(ls: "ServelintServer", params: types.CompletionParams):
    return await complete(ls, params)


def register(server: "ServelintServer") -> None:
    server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=["-", "=", " ", '"', "{", "."]),
    )(on_completion)
