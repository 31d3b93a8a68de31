"""Apply a record's flag diff to the user's launch, in the user's own form.

Removing a conflicting flag is *safe*.  Adding flags, changing values, keys
of a JSON-valued flag or the model changes what the launch does beyond the
conflict, so such fixes are offered but *unsafe*: never applied by ``--fix``
or fix-all.

Each part of the diff either applies to this launch or makes the whole
alternative not apply (``None``): an alternative that removes a flag the
launch does not have is about some other launch.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from .. import jsonpos
from ..argv import Flag, Invocation
from ..diagnostics import Applicability, Edit, Fix
from ..model import Entry, Launch, Word
from ..text import Span
from .. import edits as ed
from .example_fix import Alternative, FlagChange, FlagDiff, KeyChange

TextOf = Callable[[str], "str | None"]


class _NotApplicable(Exception):
    """This alternative is not about this launch (or cannot be written in it)."""


def _need(value):
    if value is None or value is False:
        raise _NotApplicable
    return value


def _description(option) -> str:
    """A few words on what a flag is for, from its help: "(speculative decoding)"."""
    first = (getattr(option, "help", None) or "").split(".")[0].strip()
    m = re.search(r"\bfor (?:the )?([a-z][a-z -]{2,40})$", first, re.I) or re.match(
        r"^([A-Za-z][A-Za-z -]{2,40}?) (?:configuration|config|settings)$", first
    )
    if m and len(m.group(1).split()) <= 4:
        return f" ({m.group(1).strip().lower()})"
    return ""


# -- the parts of a diff -------------------------------------------------------


def _removed_flags(inv: Invocation, dests: list[str]) -> list[Flag]:
    out = []
    for dest in dests:
        flags = inv.flags_for(dest)
        _need(flags or None)  # the conflict this alternative removes is not in this launch
        out.extend(flags)
    return out


def _model_edit(inv: Invocation, text_of: TextOf, path: str, model: str) -> Edit:
    return _need(ed.set_word(inv, text_of, path, _need(inv.model), model))


def _value_edits(inv: Invocation, text_of: TextOf, path: str, change: FlagChange) -> list[Edit]:
    flag = _need(inv.last(change.dest))
    _need(flag.values and change.values and len(flag.values) == len(change.values))
    return [_need(ed.set_word(inv, text_of, path, w, v)) for w, v in zip(flag.values, change.values)]


# -- keys of JSON-valued flags -------------------------------------------------


def _json_text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _member_style(text: str, node: jsonpos.JsonNode) -> tuple[str, str]:
    """The user's ``,`` and ``:`` spacing inside a JSON object."""
    inner = text[node.start : node.end]
    comma = ", " if re.search(r",\s", inner) else ","
    colon = ": " if re.search(r'"\s*:\s', inner) else ":"
    return comma, colon


def _walk(root, key: tuple[str, ...], child: Callable):
    """The object holding ``key``'s last part (which must exist up to there)
    and that part's node (None when absent)."""
    parent = root
    for k in key[:-1]:
        parent = _need(child(parent, k))
    _need(isinstance(parent.value, dict))
    return parent, child(parent, key[-1])


def _json_string_edit(inv: Invocation, text_of: TextOf, path: str, flag: Flag, change: KeyChange) -> Edit:
    """One key changed inside a JSON value written as a string."""
    word = flag.values[0]
    p = word.path or path
    text = _need(text_of(p))
    root = _need(jsonpos.locate(word.text))
    parent, node = _walk(root, change.key, lambda n, k: n.children.get(k) if isinstance(n.value, dict) else None)
    style = ed.word_style(inv, word)
    if change.removed:
        _need(node is not None)
        i, j = _member_extent(parent, change.key[-1])
        return _need(ed.replace_in_word(text, word, i, j, "", style, p))
    if node is not None:
        return _need(ed.replace_in_word(text, word, node.start, node.end, _json_text(change.value), style, p))
    comma, colon = _member_style(word.text, parent)
    member = json.dumps(change.key[-1]) + colon + _json_text(change.value)
    at = parent.end - 1
    return _need(ed.replace_in_word(text, word, at, at, (comma if parent.children else "") + member, style, p))


def _member_extent(obj: jsonpos.JsonNode, key: str) -> tuple[int, int]:
    """A member's text with the comma that separates it from a neighbour."""
    keys = list(obj.children)
    child = obj.children[key]
    k = keys.index(key)
    if k > 0:
        return obj.children[keys[k - 1]].end, child.end
    if len(keys) > 1:
        return child.key_start, obj.children[keys[1]].key_start
    return child.key_start, child.end


def _yaml_key_edit(inv: Invocation, text_of: TextOf, path: str, flag: Flag, change: KeyChange) -> list[Edit]:
    """One key changed inside a --config mapping value."""
    word = flag.values[0]
    p = word.path or path
    text = _need(text_of(p))
    parent, node = _walk(word.node, change.key, lambda n, k: n.get(k) if n.children is not None else None)
    if change.removed:
        _need(node is not None and node.key_span is not None)
        return [ed.remove_span(text, node.key_span.cover(node.span), p)]
    value = ed.yaml_quote(change.value) if isinstance(change.value, str) else _json_text(change.value)
    if node is not None:
        return [Edit(p, node.span, value)]
    last = _need(parent.children and parent.children[-1])
    _need(last.key_span is not None)
    entry = f"{ed.yaml_quote(change.key[-1])}: {value}"
    if text[parent.span.start] == "{":
        return [Edit(p, Span(last.span.end, last.span.end), ", " + entry)]
    _, line_end = ed.line_bounds(text, max(last.span.start, last.span.end - 1))
    col = last.key_span.start - ed.line_bounds(text, last.key_span.start)[0]
    return [Edit(p, Span(line_end, line_end), "\n" + " " * col + entry)]


def _key_edits(inv: Invocation, text_of: TextOf, path: str, change: KeyChange) -> list[Edit]:
    dotted = [f for f in inv.flags_for(change.dest) if f.dotted_key == ".".join(change.key)]
    if dotted:
        if change.removed:
            return _need(ed.remove_flags(text_of, dotted, path))
        _need(len(dotted) == 1 and len(dotted[0].values) == 1)
        value = change.value if isinstance(change.value, str) else _json_text(change.value)
        return [_need(ed.set_word(inv, text_of, path, dotted[0].values[0], value))]
    whole = [f for f in inv.flags_for(change.dest) if f.dotted_key is None and len(f.values) == 1]
    flag = _need(whole and whole[-1])
    _need(flag.values[0].exact)
    if flag.values[0].role == "config-value" and flag.values[0].node is not None:
        return _yaml_key_edit(inv, text_of, path, flag, change)
    return [_json_string_edit(inv, text_of, path, flag, change)]


def _key_title(change: KeyChange) -> str:
    key = ".".join(change.key)
    if change.removed:
        return f"Remove {key} from {change.string}"
    return f"Set {key} to {_json_text(change.value)} in {change.string}"


# -- adding flags --------------------------------------------------------------


def _tokens(change: FlagChange) -> list[str]:
    return [change.string, *change.values]


def _config_entry(change: FlagChange) -> str:
    key = change.string[2:]
    if not change.values:
        return f"{key}: true"
    if len(change.values) > 1:
        return f"{key}: [{', '.join(ed.yaml_quote(v) for v in change.values)}]"
    return f"{key}: {ed.yaml_quote(change.values[0], string=False)}"


def _insert_keys(launch: Launch, text: str, path: str, changes: list[FlagChange]) -> Edit:
    """New ``key: value`` lines after the last entry of a --config mapping."""
    c = _need(launch.container)
    _need(c.kind == "map" and not c.flow and c.items and c.column is not None)
    end = c.items[-1].end
    _, line_end = ed.line_bounds(text, max(c.items[-1].start, end - 1))
    lines = "".join("\n" + " " * c.column + _config_entry(ch) for ch in changes)
    return Edit(path, Span(line_end, line_end), lines)


def _group_starts(words: list[Word]) -> list[int]:
    return [i for i, w in enumerate(words) if i == 0 or w.text.startswith("-")]


def _insert_words(launch: Launch, text: str, path: str, words: list[Word], changes: list[FlagChange]) -> Edit:
    """New flags after the launch's last word, laid out like its other flags."""
    anchor = _need(words and words[-1])
    style = ed.style_of(launch)
    if style == "yaml":
        line_start = text.rfind("\n", 0, anchor.span.start) + 1
        prefix = text[line_start : anchor.span.start]
        if prefix.strip() != "-":
            prefix = ed.indent_of(text, anchor.span.start) + "- "
        default = "\n" + prefix
    elif style == "json":
        default = ", "
    else:
        default = " "
    starts = _group_starts(words)
    k = starts[-1]
    between = ed.separator(text, words[k - 1].span, words[k].span, default) if k > 0 else default
    within = between if style == "yaml" else ("," if style == "json" else "") + " "
    for i in starts:
        if i + 1 < len(words) and not words[i + 1].text.startswith("-") and i + 1 not in starts:
            within = ed.separator(text, words[i].span, words[i + 1].span, within)
    joined = launch.layout == "yaml-list"
    groups = []
    for ch in changes:
        tokens = _tokens(ch)
        if joined and len(tokens) == 2:
            tokens = [f"{tokens[0]}={tokens[1]}"]
        groups.append(within.join(ed.quote(t, style) for t in tokens))
    return Edit(path, Span(anchor.span.end, anchor.span.end), "".join(between + g for g in groups))


def _additions(inv: Invocation, text_of: TextOf, path: str, added: list[FlagChange], gone: list[Span]) -> tuple[list[Edit], list[FlagChange]]:
    """Edits adding flags (a flag already given with another value is changed)."""
    kn = inv.knowledge
    _need(all(c.dest in kn.by_dest for c in added))  # a flag this release does not have
    new, edits = [], []
    for c in added:
        have = inv.last(c.dest)
        if have is None:
            new.append(c)
        elif tuple(w.text for w in have.values) != c.values or have.negated != c.negated:
            _need(not have.negated and not c.negated)
            edits.extend(_value_edits(inv, text_of, path, c))
    if not new:
        return edits, new
    launch = inv.launch
    text = _need(text_of(path))
    if launch.entry is Entry.CONFIG_FILE:
        edits.append(_insert_keys(launch, text, path, new))
    else:
        words = [w for w in launch.args if w.path in (None, path)
                 and not any(g.start <= w.span.start and w.span.end <= g.end for g in gone)]
        edits.append(_insert_words(launch, text, path, words, new))
    return edits, new


# -- one alternative -----------------------------------------------------------


def _join_insertions(edits: list[Edit]) -> list[Edit]:
    """An insertion at the edge of a deletion becomes part of it (two edits at
    one point have no defined order)."""
    dels = [e for e in edits if len(e.span) and not e.new_text]
    out = [e for e in edits if e not in dels]
    for d in dels:
        ins = [e for e in out if not len(e.span) and e.path == d.path and e.span.start in (d.span.start, d.span.end)]
        if ins:
            out.remove(ins[0])
            d = Edit(d.path, d.span, ins[0].new_text)
        out.append(d)
    return sorted(out, key=lambda e: (e.path, e.span.start))


def _title(removed: list[str], model: str | None, rest: list[str], added: list[FlagChange]) -> str:
    parts = list(removed)
    what = " ".join(" ".join(_tokens(c)) for c in added)
    if model:
        parts.append(f"Switch to {model}" + (f" with {what}" if what else ""))
    elif what:
        parts.append(f"Add {what}")
    parts.extend(rest)
    return ", ".join(parts)


def _fix(inv: Invocation, text_of: TextOf, path: str, alt: Alternative) -> Fix:
    d: FlagDiff = alt.diff
    # Only additions: the example is not about a flag this launch has.
    _need(d.removed or d.changed or d.keys or d.model)
    edits: list[Edit] = []
    removed_titles: list[str] = []
    rest: list[str] = []
    flags = _removed_flags(inv, d.removed)
    if flags:
        edits.extend(_need(ed.remove_flags(text_of, flags, path)))
        for dest in d.removed:
            opt = inv.flags_for(dest)[-1].option
            removed_titles.append(f"Remove {opt.name}{_description(opt)}")
    if d.model:
        edits.append(_model_edit(inv, text_of, path, d.model))
    for c in d.changed:
        edits.extend(_value_edits(inv, text_of, path, c))
        rest.append(f"Set {c.string} {' '.join(c.values)}")
    for k in d.keys:
        edits.extend(_key_edits(inv, text_of, path, k))
        rest.append(_key_title(k))
    gone = [e.span for e in edits if e.path == path and not e.new_text]
    more, added = _additions(inv, text_of, path, d.added, gone)
    edits.extend(more)
    _need(edits)
    # Only a removal keeps the launch's meaning apart from the conflict.
    only_removes = not (d.model or d.changed or d.keys or d.added)
    applicability = Applicability.SAFE if only_removes else Applicability.UNSAFE
    return Fix(_title(removed_titles, d.model, rest, added), _join_insertions(edits), applicability,
               preferred=(alt.index == 0))


def fix_for(inv: Invocation, text: str | TextOf, path: str, alt: Alternative, record_id: str) -> Fix | None:
    """The user's edit for one exampleFix alternative, or None when it does not apply.

    ``text`` is the document's text, or a function giving the text of any
    file the launch is written in (the document and its --config file).
    """
    text_of: TextOf = text if callable(text) else (lambda p, _t=text: _t if p == path else None)
    try:
        fix = _fix(inv, text_of, path, alt)
    except _NotApplicable:
        return None
    fix.record = record_id
    return fix
