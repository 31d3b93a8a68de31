"""Text edits on a launch in its own form: remove, rename, replace or add flags.

Edits keep the user's layout.  A flag that has its own line(s) loses those
lines, and if it was the last line of a ``\\``-continued shell command, the
continuation on the line before goes too, so no dangling backslash is left.
A flag sharing a line with other words loses itself and one neighbouring run
of spaces.  An item of a JSON or YAML flow list (``["--a", "b"]``, a
Dockerfile exec array) loses the comma that separated it, even across lines.
A ``--config`` key loses its whole entry (``key: true``, a nested mapping).

Values are written in the quoting of where they go (``style``): "shell"
words, "yaml" list items or mapping values, "json" items of a flow list.
``apply`` makes edits in a text.  Builders only say how to write a change;
whether to offer it (and how safe it is) is the rule's call.
"""

from __future__ import annotations

import json
import re
from typing import Callable, Iterable

from .argv import Flag, Invocation
from .diagnostics import Edit
from .model import Entry, Launch, Word
from .text import Span

_TRAILING_CONT = re.compile(r"[ \t]*\\[ \t]*$")
_SHELL_SAFE = re.compile(r"^[A-Za-z0-9_@%+=:,./-]+$")
_YAML_PLAIN = re.compile(r"^[A-Za-z_/.-][A-Za-z0-9_@%+=:,./-]*$")
_YAML_NUMBER = re.compile(r"^[-+]?(\.?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?|0x[0-9a-fA-F_]+|0o?[0-7_]+)$")
_YAML_WORDS = frozenset("true false yes no null on off y n ~".split())
_LIST_OPEN, _LIST_CLOSE = "[{", "]}"
# What may separate two argv words in any layout: whitespace, shell line
# continuations, YAML item dashes and list commas.  Anything else (a comment,
# a closing bracket, ``args:``) means the words are not neighbours.
_SEPARATOR = re.compile(r"^[ \t\r\n\\,-]*$")


def apply(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with non-overlapping ``edits`` (offsets into ``text``) made."""
    out, at = [], 0
    for e in sorted(edits, key=lambda e: (e.span.start, e.span.end)):
        out.append(text[at : e.span.start])
        out.append(e.new_text)
        at = e.span.end
    out.append(text[at:])
    return "".join(out)


# -- lines ---------------------------------------------------------------------



def line_bounds(text: str, offset: int) -> tuple[int, int]:
    """Start and end of the line holding ``offset`` (the end before ``\\r\\n``)."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    end = len(text) if end < 0 else end
    if end > start and text[end - 1] == "\r":
        end -= 1
    return start, end


def _after_line(text: str, end: int) -> int:
    """The start of the next line, given a line's end from ``line_bounds``."""
    if text.startswith("\r\n", end):
        return end + 2
    return end + 1 if end < len(text) else end


def indent_of(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    line = text[start:offset]
    return line[: len(line) - len(line.lstrip())]


# -- quoting -------------------------------------------------------------------


def style_of(launch: Launch) -> str:
    """How argv words are written in a launch: "shell", "yaml" or "json"."""
    if launch.layout in ("yaml-flow", "json-array"):
        return "json"
    if launch.layout.startswith("yaml-") or launch.entry is Entry.CONFIG_FILE:
        return "yaml"
    return "shell"


def shell_quote(value: str) -> str:
    if _SHELL_SAFE.match(value):
        return value
    return "'" + value.replace("'", "'\\''") + "'"


def yaml_quote(value: str, *, string: bool = True) -> str:
    """A YAML scalar for ``value``; with ``string`` it must load as a string
    (a Kubernetes args item), else a number may stay plain (a --config value)."""
    plain = _YAML_PLAIN.match(value) or (not string and _YAML_NUMBER.match(value))
    if plain and value.lower() not in _YAML_WORDS and not (string and _YAML_NUMBER.match(value)):
        return value
    if "'" not in value and "\n" not in value:
        return "'" + value + "'"
    return json.dumps(value)


def quote(value: str, style: str) -> str:
    if style == "json":
        return json.dumps(value)
    if style == "yaml":
        return yaml_quote(value)
    return shell_quote(value)


def escape_inside(value: str, style: str, quote_char: str) -> str | None:
    """``value`` written inside an existing quote, or None when it cannot be."""
    if quote_char == "'":
        if style == "shell":
            return None if "'" in value else value
        return value.replace("'", "''")
    if quote_char == '"':
        if style == "shell":
            return re.sub(r'(["\\$`])', r"\\\1", value)
        return json.dumps(value)[1:-1]
    return value if _SHELL_SAFE.match(value) else None


# -- what a flag covers --------------------------------------------------------


def _yaml_true_end(text: str, key_end: int) -> int:
    """The end of ``: true`` after a --config key (a boolean flag's whole entry)."""
    m = re.compile(r"[ \t]*:[ \t\r\n]*([^\s,}\]#]+)").match(text, key_end)
    return m.end() if m else key_end


def flag_span(flag: Flag, text: str | None = None) -> Span:
    """Everything that belongs to the flag as written: name, values, YAML key and value."""
    span = flag.word.span if flag.word is not None else flag.name_span
    for w in flag.values:
        if w.path == (flag.word.path if flag.word else None):
            span = span.cover(w.span)
    if flag.word is not None and flag.word.role == "config-key":
        node_span = getattr(flag.word.node, "span", None)
        if node_span is not None:
            span = span.cover(node_span)
        if not flag.values and text is not None:
            span = Span(span.start, max(span.end, _yaml_true_end(text, span.end)))
    return span


def path_of(flag: Flag, path: str) -> str:
    """The file a flag is written in (a --config file's flags live there)."""
    return (flag.word.path if flag.word is not None else None) or path


# -- removing ------------------------------------------------------------------


def _neighbours(text: str, span: Span) -> tuple[int, int]:
    """Offsets of the nearest characters before and after ``span`` that are
    not whitespace or line continuations (-1 / len(text) at the ends)."""
    i = span.start - 1
    while i >= 0 and (text[i] in " \t\r\n" or (text[i] == "\\" and text[i + 1 : i + 2] in ("\n", "\r"))):
        i -= 1
    j = span.end
    while j < len(text) and (text[j] in " \t\r\n" or (text[j] == "\\" and text[j + 1 : j + 2] in ("\n", "\r"))):
        j += 1
    return i, j


def _in_flow_list(text: str, span: Span) -> bool:
    i, j = _neighbours(text, span)
    return (i >= 0 and text[i] in "," + _LIST_OPEN) and (j < len(text) and text[j] in "," + _LIST_CLOSE)


def _remove_list_item(text: str, span: Span) -> Span:
    i, j = _neighbours(text, span)
    if text[i] == ",":
        return Span(i, span.end)  # the comma before goes, with what follows it
    if text[j] == ",":
        k = j + 1
        while k < len(text) and text[k] in " \t":
            k += 1
        return Span(span.start, k)
    return span  # the only item


def _removal(text: str, span: Span) -> Span:
    """The text to delete to remove ``span`` and the layout that would dangle."""
    first_start, first_end = line_bounds(text, span.start)
    last_start, last_end = line_bounds(text, max(span.start, span.end - 1))
    before = text[first_start : span.start]
    after = text[span.end : last_end].strip()
    alone_before = before.strip() in ("", "-")
    alone_after = after in ("", "\\", ",") or after.startswith("#")
    if alone_before and alone_after:
        # Whole lines go.
        if after != "\\" and first_start > 0:
            prev_start, prev_end = line_bounds(text, first_start - 1)
            m = _TRAILING_CONT.search(text, prev_start, prev_end)
            if m and not text[prev_start:prev_end].lstrip().startswith("#"):
                # The flag ended the command: the line before must stop continuing.
                return Span(m.start(), last_end)
        return Span(first_start, _after_line(text, last_end))
    if _in_flow_list(text, span):
        return _remove_list_item(text, span)
    # Shares a line: take one run of separating spaces.
    i = span.start
    while i > first_start and text[i - 1] in " \t":
        i -= 1
    if i > first_start:
        return Span(i, span.end)
    j = span.end
    while j < last_end and text[j] in " \t":
        j += 1
    return Span(span.start, j)


def remove_span(text: str, span: Span, path: str) -> Edit:
    """An edit removing ``span`` and the layout around it that would dangle."""
    return Edit(path, _removal(text, span), "")


def remove_spans(text: str, spans: Iterable[Span], path: str) -> list[Edit]:
    """Edits removing several spans of one text.

    Each removal is decided on the text the later ones left (so removing the
    last two lines of a continued command also drops the continuation before
    them), then expressed on the original text.
    """
    spans = set(spans)
    if len(spans) == 1:
        # The common case (one flag): no copy of the text to decide on.
        cut = _removal(text, next(iter(spans)))
        return [Edit(path, cut, "")] if cut else []
    deleted: list[tuple[int, int]] = []  # in original offsets, sorted, disjoint

    def original(offset: int) -> int:
        for s, e in deleted:
            if s <= offset:
                offset += e - s
            else:
                break
        return offset

    current = text
    # From the last span back: a removal never reaches before its span's
    # line-mates or list neighbours, so earlier spans keep their offsets.
    for span in sorted(spans, key=lambda s: s.start, reverse=True):
        cut = _removal(current, span)
        if not cut:
            continue
        start, last = original(cut.start), original(cut.end - 1)
        current = current[: cut.start] + current[cut.end :]
        deleted.append((start, last + 1))
        deleted.sort()
        merged: list[tuple[int, int]] = []
        for s, e in deleted:
            if merged and s <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], e))
            else:
                merged.append((s, e))
        deleted = merged
    return [Edit(path, Span(s, e), "") for s, e in deleted]


def remove_flags(text_of: Callable[[str], str | None], flags: Iterable[Flag], path: str) -> list[Edit] | None:
    """Edits removing every one of ``flags`` (in whichever files they are
    written), or None when a file's text is not at hand."""
    by_path: dict[str, list[Span]] = {}
    for f in flags:
        p = path_of(f, path)
        text = text_of(p)
        if text is None:
            return None
        by_path.setdefault(p, []).append(flag_span(f, text))
    edits: list[Edit] = []
    for p, spans in by_path.items():
        removed = remove_spans(text_of(p), spans, p)
        if any(f.word is not None and f.word.role == "config-key" for f in flags):
            removed = _keep_a_mapping(text_of(p), removed)
        edits.extend(removed)
    return edits


def _keep_a_mapping(text: str, removed: list[Edit]) -> list[Edit]:
    """A --config file left with no key becomes ``{}``: vLLM rejects an empty file."""
    left = apply(text, removed)
    if any(ln.strip() and not ln.lstrip().startswith("#") for ln in left.splitlines()):
        return removed
    last = removed[-1]
    gone = text[last.span.start : last.span.end]
    return removed[:-1] + [Edit(last.path, last.span, "{}\n" if gone.endswith("\n") else "{}")]


def remove_flag(text: str, flag: Flag, path: str) -> list[Edit]:
    """Edits removing one flag, whose file's text is ``text``."""
    return remove_flags(lambda _p: text, [flag], path) or []


def remove_words(text_of: Callable[[str], str | None], words: Iterable[Word], path: str) -> list[Edit] | None:
    """Edits removing argv words (a stray value), or None."""
    by_path: dict[str, list[Span]] = {}
    for w in words:
        by_path.setdefault(w.path or path, []).append(w.span)
    edits: list[Edit] = []
    for p, spans in by_path.items():
        text = text_of(p)
        if text is None:
            return None
        edits.extend(remove_spans(text, spans, p))
    return edits


# -- renaming and replacing ----------------------------------------------------


def rename_flag(flag: Flag, new_string: str, path: str) -> list[Edit]:
    """Replace the flag's name as written; a YAML key keeps the key style."""
    new = new_string
    if flag.word is not None and flag.word.role == "config-key":
        new = new_string[2:] if new_string.startswith("--") else new_string
        if "_" in flag.written and "-" not in flag.written:
            new = new.replace("-", "_")
    return [Edit(path_of(flag, path), flag.name_span, new)]


def is_literal(word: Word) -> bool:
    """Each character of the word is written in the file (quotes and escapes
    aside), not brought in by a variable or a command."""
    if word.offsets is None:
        return True
    at = [word.at(i) for i in range(len(word.text))]
    return all(a < b for a, b in zip(at, at[1:]))


def replace_word(text: str, word: Word, value: str, style: str, path: str) -> Edit | None:
    """Write ``value`` in place of a whole argv word, in the word's own quoting
    when it can hold the value; None when the word is not written literally."""
    if not word.exact or not is_literal(word):
        return None
    written = text[word.span.start : word.span.end]
    q = written[:1]
    if q in ("'", '"') and len(written) >= 2 and written.endswith(q) and word.sub(0, len(word.text)) == Span(word.span.start + 1, word.span.end - 1):
        inner = escape_inside(value, style, q)
        if inner is not None:
            return Edit(path, Span(word.span.start + 1, word.span.end - 1), inner)
    if style == "yaml" and word.role == "config-value":
        return Edit(path, word.span, yaml_quote(value, string=False))
    return Edit(path, word.span, quote(value, style))


def word_style(inv: Invocation, word: Word) -> str:
    """The quoting of the launch a word is written in (a --config file's own)."""
    in_config = word.path is not None and inv.config_launch is not None
    return style_of(inv.config_launch if in_config else inv.launch)


def set_word(inv: Invocation, text_of: Callable[[str], str | None], path: str, word: Word, value: str) -> Edit | None:
    """``value`` in place of an argv word (a flag's value, the model), written
    the way its form needs; None when the word is not written literally."""
    if not word.exact or not is_literal(word):
        return None
    p = word.path or path
    text = text_of(p)
    if text is None:
        return None
    if text[word.span.start - 1 : word.span.start] == "=":
        # Part of a --flag=value word: only a value needing no quotes fits.
        return Edit(p, word.span, value) if shell_quote(value) == value else None
    return replace_word(text, word, value, word_style(inv, word), p)


def set_value(inv: Invocation, text_of: Callable[[str], str | None], path: str, flag: Flag, value: str) -> list[Edit] | None:
    """Edits giving a one-value flag a new value, or None."""
    if len(flag.values) != 1:
        return None
    e = set_word(inv, text_of, path, flag.values[0], value)
    return None if e is None else [e]


def split_word(text: str, launch: Launch, word: Word, at: int, path: str) -> Edit | None:
    """Write a ``--name=value`` word as two words, split at ``word.text[at]``."""
    if not word.exact or not is_literal(word):
        return None
    head, tail = word.text[:at], word.text[at + 1 :]
    style = style_of(launch)
    if style == "json":
        return Edit(path, word.span, f"{json.dumps(head)}, {json.dumps(tail)}")
    if style == "yaml":
        line_start = text.rfind("\n", 0, word.span.start) + 1
        prefix = text[line_start : word.span.start]
        if prefix.strip() != "-":
            return None
        return Edit(path, word.span, f"{yaml_quote(head)}\n{prefix}{yaml_quote(tail)}")
    sep = word.sub(at, at + 1)
    if text[sep.start : sep.end] == word.text[at] and not _quote_at(text, word, sep.start):
        return Edit(path, sep, " ")
    return Edit(path, word.span, f"{shell_quote(head)} {shell_quote(tail)}")


def split_into_words(text: str, launch: Launch, word: Word, parts: list[str], path: str) -> Edit | None:
    """Write one argv word as the words ``parts``, each its own argument in
    the launch's syntax (a YAML list item per part, a JSON array element, a
    shell word)."""
    if not word.exact or not is_literal(word) or not parts:
        return None
    style = style_of(launch)
    if style == "json":
        return Edit(path, word.span, ", ".join(json.dumps(p) for p in parts))
    if style == "yaml":
        line_start = text.rfind("\n", 0, word.span.start) + 1
        prefix = text[line_start : word.span.start]
        if prefix.strip() != "-":
            return None
        return Edit(path, word.span, f"\n{prefix}".join(yaml_quote(p) for p in parts))
    return Edit(path, word.span, " ".join(shell_quote(p) for p in parts))


def replace_in_word(text: str, word: Word, i: int, j: int, new: str, style: str, path: str) -> Edit | None:
    """Replace ``word.text[i:j]`` with ``new`` (already in the word's own
    syntax, e.g. JSON): inside the word as written when its quoting allows,
    else by writing the whole word again."""
    span = word.sub(i, j)
    if text[span.start : span.end] == word.text[i:j]:  # no escapes in the way
        q = _quote_at(text, word, span.start)
        inner = escape_inside(new, style, q) if q else new
        if inner is not None and (q or style != "shell" or _SHELL_SAFE.match(new.replace(" ", ""))):
            return Edit(path, span, inner)
    return replace_word(text, word, word.text[:i] + new + word.text[j:], style, path)


def _quote_at(text: str, word: Word, offset: int) -> str:
    """The quote character enclosing ``offset`` inside a word as written."""
    q = ""
    for k in range(word.span.start, offset):
        ch = text[k]
        if not q and ch in "'\"":
            q = ch
        elif q and ch == q and not (q == '"' and text[k - 1] == "\\"):
            q = ""
    return q


# -- adding --------------------------------------------------------------------


def separator(text: str, a: Span, b: Span, default: str) -> str:
    """The layout between two neighbouring words, to write new words alike."""
    if a.end <= b.start:
        between = text[a.end : b.start]
        if _SEPARATOR.match(between):
            return between
    return default
