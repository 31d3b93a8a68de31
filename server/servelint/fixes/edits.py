"""Text edits on a launch in its own form: remove, rename or change a flag.

Edits keep the user's layout.  A flag that has its own line(s) loses those
lines, and if it was the last line of a ``\\``-continued shell command, the
continuation on the line before goes too, so no dangling backslash is left.
A flag sharing a line with other words loses itself and one neighbouring run
of spaces, and in a JSON or YAML flow list the comma that separated it.
"""

from __future__ import annotations

import re

from ..argv import Flag
from ..diagnostics import Edit
from ..text import Span

_TRAILING_CONT = re.compile(r"[ \t]*\\[ \t]*$")


def _line_bounds(text: str, offset: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return start, len(text) if end < 0 else end


def flag_span(flag: Flag) -> Span:
    """Everything that belongs to the flag as written: name, values, YAML key and value."""
    span = flag.word.span if flag.word is not None else flag.name_span
    for w in flag.values:
        if w.path == (flag.word.path if flag.word else None):
            span = span.cover(w.span)
    if flag.word is not None and flag.word.role == "config-key" and flag.word.node is not None:
        node_span = getattr(flag.word.node, "span", None)
        if node_span is not None:
            span = span.cover(node_span)
    return span


def remove_span(text: str, span: Span, path: str) -> Edit:
    """An edit removing ``span`` and the layout around it that would dangle."""
    first_start, first_end = _line_bounds(text, span.start)
    last_start, last_end = _line_bounds(text, max(span.start, span.end - 1) if span.end > span.start else span.start)
    before = text[first_start : span.start]
    after = text[span.end : last_end]
    alone_before = before.strip() in ("", "-")
    after_stripped = after.strip()
    alone_after = after_stripped in ("", "\\", ",") or after_stripped.startswith("#")
    if alone_before and alone_after:
        # Whole lines go.
        removed_start = first_start
        removed_end = last_end + 1 if last_end < len(text) else last_end
        continued = after_stripped == "\\"
        if not continued and first_start > 0:
            prev_start, prev_end = _line_bounds(text, first_start - 1)
            prev = text[prev_start:prev_end]
            m = _TRAILING_CONT.search(prev)
            if m:
                # The flag ended the command: the line before must stop continuing.
                removed_start = prev_start + m.start()
                removed_end = last_end
        return Edit(path, Span(removed_start, removed_end), "")
    # Shares a line: take one run of separating spaces (and a list comma).
    start, end = span.start, span.end
    i = start
    while i > first_start and text[i - 1] in " \t":
        i -= 1
    if i > first_start and text[i - 1] == ",":
        return Edit(path, Span(i - 1, end), "")
    j = end
    while j < last_end and text[j] in " \t":
        j += 1
    if j < last_end and text[j] == ",":
        j += 1
        while j < last_end and text[j] in " \t":
            j += 1
        return Edit(path, Span(start, j), "")
    if i < start:
        return Edit(path, Span(i, end), "")
    return Edit(path, Span(start, j), "")


def remove_flag(text: str, flag: Flag, path: str) -> list[Edit]:
    return [remove_span(text, flag_span(flag), flag.word.path or path if flag.word else path)]


def rename_flag(flag: Flag, new_string: str, path: str) -> list[Edit]:
    """Replace the flag's name as written; a YAML key keeps the key style."""
    new = new_string
    if flag.word is not None and flag.word.role == "config-key":
        new = new_string[2:] if new_string.startswith("--") else new_string
        if "_" in flag.written and "-" not in flag.written:
            new = new.replace("-", "_")
    p = (flag.word.path if flag.word is not None else None) or path
    return [Edit(p, flag.name_span, new)]
