"""Apply a record's flag diff to the user's launch, in the user's own form.

Removing a conflicting flag is *safe*.  Adding flags, changing values or the
model changes what the launch does beyond the conflict, so such fixes are
offered but *unsafe*: never applied by ``--fix`` or fix-all.
"""

from __future__ import annotations

import json
import re

from ..argv import Flag, Invocation
from ..diagnostics import Edit, Fix
from ..model import Entry, Form
from ..text import Span
from .edits import flag_span, remove_span
from .example_fix import Alternative, FlagChange, FlagDiff

_SHELL_SAFE = re.compile(r"^[A-Za-z0-9_@%+=:,./-]+$")
_YAML_PLAIN = re.compile(r"^[A-Za-z_/.-][A-Za-z0-9_@%+=:,./-]*$")


def merge_deletions(edits: list[Edit]) -> list[Edit]:
    """Overlapping deletions become one (removing two adjacent lines may overlap)."""
    dels = sorted((e for e in edits if not e.new_text), key=lambda e: (e.path, e.span.start))
    others = [e for e in edits if e.new_text]
    merged: list[Edit] = []
    for e in dels:
        if merged and merged[-1].path == e.path and e.span.start <= merged[-1].span.end:
            last = merged[-1]
            merged[-1] = Edit(last.path, Span(last.span.start, max(last.span.end, e.span.end)), "")
        else:
            merged.append(e)
    return merged + others


def _shell_quote(value: str) -> str:
    if _SHELL_SAFE.match(value):
        return value
    return "'" + value.replace("'", "'\\''") + "'"


def _yaml_quote(value: str) -> str:
    if _YAML_PLAIN.match(value) and value.lower() not in ("true", "false", "yes", "no", "null", "on", "off", "~"):
        return value
    return json.dumps(value)


def _description(ctx_option) -> str:
    """A few words on what a flag is for, from its help: "(speculative decoding)"."""
    help_text = (getattr(ctx_option, "help", None) or "").split(".")[0]
    m = re.search(r"\bfor (?:the )?([a-z][a-z -]{2,40})$", help_text.strip(), re.I)
    if m and len(m.group(1).split()) <= 4:
        return f" ({m.group(1).strip()})"
    return ""


def _indent_of(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    line = text[start:offset]
    return line[: len(line) - len(line.lstrip())]


def _insert_flags(inv: Invocation, text: str, path: str, changes: list[FlagChange]) -> list[Edit]:
    launch = inv.launch
    if not changes:
        return []
    args = [w for w in launch.args if w.path in (None, path)]
    anchor = args[-1] if args else None
    if launch.entry is Entry.CONFIG_FILE:
        # A --config YAML: one "key: value" line per flag, after the last key.
        end = anchor.span.end if anchor is not None else launch.span.end
        for f in inv.flags:
            if f.word is not None and f.word.path in (None, path):
                end = max(end, flag_span(f).end)
        lines = []
        for c in changes:
            key = c.string[2:]
            value = "true" if not c.values else _yaml_quote(" ".join(c.values))
            lines.append(f"{key}: {value}")
        line_end = text.find("\n", end)
        line_end = len(text) if line_end < 0 else line_end
        return [Edit(path, Span(line_end, line_end), "\n" + "\n".join(lines))]
    if anchor is None:
        return []
    items: list[str] = []
    for c in changes:
        items.append(c.string)
        items.extend(c.values)
    if launch.layout.startswith("yaml-list"):
        # New items copy the last item's "    - " prefix.
        line_start = text.rfind("\n", 0, anchor.span.start) + 1
        prefix = text[line_start : anchor.span.start]
        if prefix.strip() not in ("-", ""):
            prefix = _indent_of(text, anchor.span.start) + "- "
        line_end = text.find("\n", anchor.span.end)
        line_end = len(text) if line_end < 0 else line_end
        new = "".join(f"\n{prefix}{_yaml_quote(item)}" for item in items)
        return [Edit(path, Span(line_end, line_end), new)]
    if launch.layout in ("yaml-flow", "json-array"):
        return [Edit(path, Span(anchor.span.end, anchor.span.end), "".join(f", {json.dumps(i)}" for i in items))]
    words = " ".join(_shell_quote(i) for i in items)
    if launch.layout == "multiline-backslash" and launch.form in (Form.SHELL, Form.KUBERNETES, Form.SKYPILOT, Form.GITHUB_ACTIONS):
        lines = []
        for c in changes:
            lines.append(" ".join(_shell_quote(x) for x in (c.string, *c.values)))
        indent = _indent_of(text, anchor.span.start)
        return [Edit(path, Span(anchor.span.end, anchor.span.end), "".join(f" \\\n{indent}{ln}" for ln in lines))]
    return [Edit(path, Span(anchor.span.end, anchor.span.end), " " + words)]


def _change_value(inv: Invocation, text: str, path: str, change: FlagChange) -> list[Edit] | None:
    flag: Flag | None = inv.last(change.dest)
    if flag is None or not flag.values or not change.values or len(flag.values) != len(change.values):
        return None
    edits = []
    yaml = inv.launch.form not in (Form.SHELL,) and not inv.launch.layout.startswith("multiline")
    for w, new in zip(flag.values, change.values):
        if not w.exact:
            return None
        inner = w.sub(0, len(w.text))
        quoted = inner != w.span
        new_text = new if quoted else (_yaml_quote(new) if yaml else _shell_quote(new))
        edits.append(Edit(w.path or path, inner if quoted else w.span, new_text))
    return edits


def fix_for(inv: Invocation, text: str, path: str, alt: Alternative, record_id: str) -> Fix | None:
    """The user's edit for one exampleFix alternative, or None when it does not apply."""
    d: FlagDiff = alt.diff
    kn = inv.knowledge
    if not (d.removed or d.changed or d.model):
        # Only additions: the example is not about a flag this launch has.
        return None
    edits: list[Edit] = []
    titles: list[str] = []
    safe = True
    for dest in d.removed:
        flags = [f for f in inv.flags if f.option is not None and f.option.dest == dest]
        if not flags:
            return None  # the conflict this alternative removes is not in this launch
        opt = flags[-1].option
        for f in flags:
            doc_path = (f.word.path if f.word is not None else None) or path
            if doc_path != path:
                return None  # the flag lives in another file (a --config YAML)
            edits.append(remove_span(text, flag_span(f), path))
        titles.append(f"Remove {opt.name}{_description(opt)}")
    if d.model:
        if inv.model is None or not inv.model.exact or (inv.model.path or path) != path:
            return None
        inner = inv.model.sub(0, len(inv.model.text))
        edits.append(Edit(path, inner, d.model))
        titles.append(f"Switch to {d.model}")
        safe = False
    for c in d.changed:
        e = _change_value(inv, text, path, c)
        if e is None:
            return None
        edits.extend(e)
        titles.append(f"Set {c.string} {' '.join(c.values)}")
        safe = False
    added = [c for c in d.added if c.dest in kn.by_dest]
    if len(added) != len(d.added):
        return None  # the fix needs a flag this release does not have
    if added:
        edits.extend(_insert_flags(inv, text, path, added))
        what = " ".join(" ".join((c.string, *c.values)) for c in added)
        titles.append(("with " if d.model else "Add ") + what)
        safe = False
    if not edits:
        return None
    title = ", ".join(titles[:1]) + (" " + " ".join(titles[1:]) if d.model and len(titles) > 1 else (", " + ", ".join(titles[1:]) if len(titles) > 1 else ""))
    return Fix(title, merge_deletions(edits), safe=safe, preferred=(alt.index == 0))
