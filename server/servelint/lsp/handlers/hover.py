"""Hover: what a flag (or a value) means for the file's vLLM release.

All facts come from the engine's last analysis of the document: the flag
under the cursor (``Invocation.flag_at``), its knowledge ``Option``, the
release chosen for the launch and why, the diagnostics on it and the error
records they are linked to.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING

from lsprotocol import types

from ... import knowledge
from ...argv import Flag, primary_string
from ...diagnostics import Diagnostic
from ...jsonpos import locate
from ...model import Word
from ...output import doc_url
from ...text import Span
from .. import convert
from .guard import guard

if TYPE_CHECKING:  # pragma: no cover
    from ...engine import LaunchResult
    from ..server import ServelintServer

MAX_CHOICES = 40


def release_ranges(releases: list[str]) -> str:
    """``0.25.0–0.28.0, 0.31.0`` over the releases servelint knows."""
    known = list(knowledge.RELEASES)
    have = set(releases)
    runs: list[list[str]] = []
    for v in known:
        if v in have:
            if runs and runs[-1][-1] == known[known.index(v) - 1] and known.index(v) > 0:
                runs[-1].append(v)
            else:
                runs.append([v])
    return ", ".join(r[0] if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def _code(text: object) -> str:
    s = json.dumps(text) if not isinstance(text, str) else text
    fence = "``" if "`" in s else "`"
    return f"{fence}{s}{fence}"


def _index_in(word: Word, offset: int) -> int:
    """The character of ``word.text`` written at ``offset``."""
    for i in range(len(word.text)):
        if word.at(i) <= offset < word.at(i + 1):
            return i
    return len(word.text)


def _json_key_at(word: Word, offset: int) -> tuple[list[str], Span] | None:
    """The path of keys to the JSON member whose key is under the cursor,
    and where that key is written."""
    root = locate(word.text)
    if root is None:
        return None
    i = _index_in(word, offset)
    path: list[str] = []
    node = root
    while True:
        for key, child in node.children.items():
            if child.key_start <= i < child.key_end:
                return path + [str(key)], word.sub(child.key_start, child.key_end)
            if child.start <= i < child.end and child.children:
                path.append(str(key))
                node = child
                break
        else:
            return None


def _field(option, keys: list[str]) -> dict | None:
    spec = option.json or {}
    fields = spec.get("fields") or {}
    found = None
    for k in keys:
        found = fields.get(k) if isinstance(fields, dict) else None
        if not isinstance(found, dict):
            return None
        fields = found.get("fields") or {}
    return found


def _option_facts(option) -> list[str]:
    facts = []
    if option.type:
        facts.append(f"type {_code(option.type)}")
    if option.kind in ("bool", "store_true"):
        facts.append("a switch (no value)")
    if option.default is not None:
        facts.append(f"default {_code(option.default)}")
    lines = ["- " + " · ".join(facts)] if facts else []
    if option.choices:
        shown = ", ".join(_code(c) for c in option.choices[:MAX_CHOICES])
        more = f" … ({len(option.choices)} in all)" if len(option.choices) > MAX_CHOICES else ""
        lines.append(f"- choices: {shown}{more}")
    elif option.metavar_choices:
        shown = ", ".join(_code(c) for c in option.metavar_choices[:MAX_CHOICES])
        more = f" … ({len(option.metavar_choices)} in all)" if len(option.metavar_choices) > MAX_CHOICES else ""
        lines.append(f"- known values: {shown}{more} (others are accepted)")
    negative = [s for s in option.strings if s in option.negative]
    spellings = [s for s in option.strings if s != primary_string(option) and s not in negative]
    if spellings:
        lines.append("- also written " + ", ".join(_code(s) for s in spellings))
    if negative:
        lines.append("- turned off with " + ", ".join(_code(s) for s in negative))
    if option.group:
        lines.append(f"- group {_code(option.group)}")
    if option.deprecated:
        note = option.deprecated if isinstance(option.deprecated, str) else "deprecated"
        lines.append(f"- **deprecated**: {note}")
    return lines


def _release_lines(flag: Flag, lr: "LaunchResult") -> list[str]:
    lines = []
    string = flag.string or (flag.written if flag.written.startswith("-") else "--" + flag.written)
    releases = knowledge.history.releases_with(string)
    if releases:
        lines.append(f"- in vLLM {release_ranges(releases)}")
    else:
        lines.append("- in no vLLM release servelint knows")
    lines.append(f"- this launch: vLLM {lr.release.version}, because {lr.release.reason}")
    return lines


def _diagnostic_section(ls: "ServelintServer", d: Diagnostic) -> list[str]:
    from ...rules import lookup

    out = [f"**{d.code}** {d.name}: {d.message}"]
    if d.record:
        loaded = ls.session.engine.records.get(d.record)
        if loaded is not None:
            rec = loaded.record
            out.append(f"\nvLLM error record `{rec.id}`:")
            if rec.documentation:
                out.append("\n" + rec.documentation.strip())
            if rec.triggerScenarios:
                out.append("\n**When it happens:** " + rec.triggerScenarios.strip())
            if rec.solutions:
                out.append("\n**Solutions:**\n" + "\n".join(f"{i}. {s.strip()}" for i, s in enumerate(rec.solutions, 1)))
    cls = lookup(d.code)
    if cls is not None:
        out.append(f"\n{cls.summary()} [{d.code} {d.name}]({doc_url(d.name)})")
    return out


def _diagnostics_on(ls, result, path: str, span: Span) -> list[Diagnostic]:
    return [d for d in result.diagnostics if d.path == path and (d.span.overlaps(span) or span.contains(d.span.start))]


def _flag_markdown(ls, result, path, lr, flag: Flag, word: Word | None, offset: int) -> tuple[str, Span]:
    option = flag.option
    parts: list[str] = []
    span = word.span if word is not None else flag.name_span
    if word is not None and option is not None:
        more, at = _value_markdown(flag, word, offset)
        parts.extend(more)
        span = at or span
    elif option is not None:
        title = f"### {_code(primary_string(option))}"
        if flag.written not in (primary_string(option), primary_string(option)[2:]):
            title += f" (written {_code(flag.written)})"
        parts.append(title)
        if flag.dotted_key:
            field = _field(option, flag.dotted_key.split("."))
            if field is not None:
                parts.append(f"`{flag.dotted_key}`: {field.get('help') or ''}".rstrip())
        if option.help:
            parts.append(option.help.strip())
        parts.append("\n".join(_option_facts(option) + _release_lines(flag, lr)))
    else:
        parts.append(f"### {_code(flag.written)}")
        parts.append(f"Not a `vllm serve` flag in vLLM {lr.release.version}.")
        parts.append("\n".join(_release_lines(flag, lr)))
    for d in _diagnostics_on(ls, result, path, flag.span):
        parts.append("---\n" + "\n".join(_diagnostic_section(ls, d)))
    return "\n\n".join(p for p in parts if p), span


def _value_markdown(flag: Flag, word: Word, offset: int) -> tuple[list[str], Span | None]:
    option = flag.option
    parts = [f"### {_code(word.text)} for {_code(primary_string(option))}"]
    if option.json and option.json.get("fields"):
        found = _json_key_at(word, offset)
        keys, at = found if found else ([], None)
        field = _field(option, keys) if keys else None
        if field is not None:
            parts[0] = f"### `{'.'.join(keys)}` in {_code(primary_string(option))}"
            facts = []
            if field.get("type"):
                facts.append(f"type {_code(field['type'])}")
            if field.get("default") is not None:
                facts.append(f"default {_code(field['default'])}")
            if field.get("help"):
                parts.append(field["help"].strip())
            if facts:
                parts.append("- " + " · ".join(facts))
            if field.get("choices"):
                parts.append("choices: " + ", ".join(_code(c) for c in field["choices"]))
            return parts, at
    if word.exact and option.type and not option.json:
        from ...values import ValueProblem, convert

        try:
            value = convert(option, word.text)
        except ValueProblem as exc:
            parts.append(f"vLLM rejects it: {exc}")
        except Exception:  # a type servelint does not model
            pass
        else:
            if value != word.text:
                parts.append(f"vLLM reads it as {_code(value)}")
    choices = option.choices or option.metavar_choices
    if choices:
        if word.text in choices:
            parts.append(f"{_code(word.text)} is one of " + ", ".join(
                f"**{_code(c)}**" if c == word.text else _code(c) for c in choices[:MAX_CHOICES]))
        elif option.choices:
            parts.append("Not one of the choices: " + ", ".join(_code(c) for c in choices[:MAX_CHOICES]))
        else:
            parts.append("Known values: " + ", ".join(_code(c) for c in choices[:MAX_CHOICES]) + " (others are accepted)")
    if option.help:
        parts.append(option.help.strip())
    return parts, None


async def hover(ls: "ServelintServer", params: types.HoverParams) -> types.Hover | None:
    uri = params.text_document.uri
    st = await ls.session.lint(uri, publish=False)
    if st is None or st.result is None:
        return None
    result = st.result
    loop = asyncio.get_running_loop()
    # Records load on first use; in the worker, where the engine also reads them.
    await loop.run_in_executor(ls.session.executor, lambda: ls.session.engine.records)
    src = ls.session.source(st, result)
    offset = src.offset_at(params.position.line, params.position.character)
    for lr in result.launches:
        inv = lr.invocation
        if inv is None:
            continue
        hit = inv.flag_at(offset)
        if hit is None:
            if lr.launch.entry_span.start <= offset < max(lr.launch.entry_span.end, lr.launch.entry_span.start + 1):
                return types.Hover(
                    contents=types.MarkupContent(kind=_markup_kind(ls), value=launch_markdown(result, lr)),
                    range=convert.lsp_range(src, lr.launch.entry_span),
                )
            continue
        flag, word = hit
        value, span = _flag_markdown(ls, result, st.path, lr, flag, word, offset)
        return types.Hover(
            contents=types.MarkupContent(kind=_markup_kind(ls), value=value),
            range=convert.lsp_range(src, span),
        )
    return None


def launch_markdown(result, lr: "LaunchResult") -> str:
    """The hover on a launch's entry point: what ``check --show-launches``
    says of it (how it starts, its release and why, where its flags come
    from, what is not known)."""
    from ...output import launch_reports

    item = launch_reports(_OneLaunch(result, lr))[0]
    head = f"### `{item['entry']}` ({item['form']})"
    lines = [f"- vLLM {item['release']['version']}, because {item['release']['reason']}"]
    if item.get("image"):
        lines.append(f"- image `{item['image']}`")
    if item.get("build"):
        lines.append(f"- image built from `{item['build']['dockerfile']}`")
    if item.get("entry_unknown"):
        lines.append(f"- entry point unknown: {item['entry_unknown']}")
    model = item.get("model")
    if model:
        note = f" (unknown: {model['unknown']})" if model.get("unknown") else ""
        lines.append(f"- model `{model['name']}` ({model['from']}){note}")
    flags = item.get("flags", [])
    if flags:
        by = {"file": 0, "config-file": 0, "added": 0}
        for f in flags:
            by[f["from"]] += 1
        said = [f"{by['file']} written here"] + ([f"{by['config-file']} from the config file"] if by["config-file"] else []) \
            + ([f"{by['added']} added by the form"] if by["added"] else [])
        lines.append(f"- {len(flags)} flag{'s' if len(flags) != 1 else ''}: " + ", ".join(said))
        unknown = [f["written"] for f in flags if f.get("unknown")]
        if unknown:
            lines.append("- values not known from the file: " + ", ".join(f"`{u}`" for u in unknown))
    from ...output import deployment_lines

    lines.extend(f"- {line}" for line in deployment_lines(item))
    for inp in item.get("inputs", []):
        guard = f" (required: the file stops without it, line {inp['guard']['range']['start']['line'] + 1})" \
            if inp.get("guard") and inp["guard"]["kind"] == "required" else ""
        lines.append(f"- input `${inp['name']}`: set by whoever runs the file{guard}")
    for w in item.get("opaque", []):
        lines.append(f"- may hide flags: `{w['text']}`" if w["text"] else f"- may hide flags: {w['note']}")
    return head + "\n\n" + "\n".join(lines)


class _OneLaunch:
    """A lint result narrowed to one launch, for ``output.launch_reports``."""

    def __init__(self, result, lr) -> None:
        self.source = result.source
        self.launches = [lr]


def _markup_kind(ls: "ServelintServer") -> types.MarkupKind:
    td = ls.client_capabilities.text_document
    formats = td.hover.content_format if td and td.hover and td.hover.content_format else None
    if formats and types.MarkupKind.Markdown not in formats:
        return types.MarkupKind.PlainText
    return types.MarkupKind.Markdown


@guard()
async def on_hover(ls: "ServelintServer", params: types.HoverParams):
    return await hover(ls, params)


def register(server: "ServelintServer") -> None:
    server.feature(types.TEXT_DOCUMENT_HOVER)(on_hover)
