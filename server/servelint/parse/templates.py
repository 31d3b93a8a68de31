"""Go-template text inside YAML (Helm chart templates, KServe and llmaz
placeholders): ``{{ .Values.model }}``, ``{{- if .Values.x }}``, ``{{ .Name }}``.

Such a file is not YAML until it is rendered, and what a template
expression gives is known only then.  ``mask`` turns a YAML document's text
into YAML of the same length that the parsers can read:

* a line that holds nothing but template actions (``{{- if ... }}``,
  ``{{- end }}``, ``{{ include "x" . | nindent 8 }}``) becomes blank, so
  both branches of a condition are read;
* any other action becomes a run of ``PLACEHOLDER`` characters, a plain
  word to YAML and to the shell.

``Marks`` remembers where each action was; ``finish`` marks the words of a
launch made from one as inexact (with the expression in the note, the text
restored as written), and the words inside ``{{ if }}``/``{{ with }}``/
``{{ range }}`` blocks as present only when the condition holds.  Never an
error: a template is a value the file does not show.
"""

from __future__ import annotations

import re

from ..structs import dataclass, field
from ..model import Launch, Word
from ..text import Span

# A private-use character: printable to PyYAML, a word character to the
# shell parser (non-ASCII becomes ``%`` there), never in a real file.
PLACEHOLDER = "\ue000"
_BLOCKS = ("if", "with", "range", "define", "block")


@dataclass(slots=True)
class Marks:
    """Template actions of one masked text, in document offsets."""

    # (span, expression as written) of each action left in as placeholders.
    values: list[tuple[Span, str]] = field(default_factory=list)
    # (span of the block's body, its opening action) of if/with/range blocks.
    conditions: list[tuple[Span, str]] = field(default_factory=list)


def has_template(text: str) -> bool:
    return "{{" in text and next(_actions(text), None) is not None


def mask(text: str, base: int = 0) -> tuple[str, Marks]:
    """``text`` with its template actions hidden (same length) and where they were.

    ``base`` is the document offset of ``text[0]``."""
    actions = list(_actions(text))
    marks = Marks()
    if not actions:
        return text, marks
    chars = list(text)
    alone = _alone(text, actions)
    stack: list[tuple[int, str]] = []  # (end of the opening action, its text)
    for (a, b), only in zip(actions, alone):
        body = text[a + 2 : b - 2].strip("- \t\r\n")
        word = body.split(None, 1)[0] if body else ""
        if word in _BLOCKS:
            stack.append((b, text[a:b]))
        elif word == "end" and stack:
            start, opening = stack.pop()
            if not opening.lstrip("{- ").startswith(("define", "block")):
                marks.conditions.append((Span(base + start, base + a), opening))
        elif word.startswith("/*"):
            only = True  # a comment gives nothing
        if only or word in _BLOCKS or word in ("end", "else") or word.startswith("/*"):
            for k in range(a, b):
                if chars[k] not in "\r\n":
                    chars[k] = " "
            if only:
                _keep_continuation(text, chars, a, b)
        else:
            for k in range(a, b):
                if chars[k] not in "\r\n":
                    chars[k] = PLACEHOLDER
            marks.values.append((Span(base + a, base + b), " ".join(text[a:b].split())))
    # ``define`` bodies are named templates, not part of this document.
    return "".join(chars), marks


def _keep_continuation(text: str, chars: list[str], a: int, b: int) -> None:
    r"""An action alone on a line inside a shell script continued with ``\``:
    rendered, ``{{-`` eats the line break before it and the script goes on;
    blanked, the empty line would end the command.  The blank line then
    ends in ``\`` itself, so the continuation goes on through it."""
    ls = text.rfind("\n", 0, a)
    if ls <= 0:
        return
    prev_end = ls
    if text[prev_end - 1 : prev_end] == "\r":
        prev_end -= 1
    if text[:prev_end].rstrip(" \t").endswith("\\") and text[:prev_end].endswith("\\"):
        le = text.find("\n", b)
        le = len(text) if le < 0 else le
        if le > 0 and text[le - 1 : le] == "\r":
            le -= 1
        if le - 1 > ls and all(c == " " for c in chars[ls + 1 : le]):
            chars[le - 1] = "\\"


# What a Go-template action starts with, after ``{{`` and an optional ``-``:
# a field or variable (``.Values``, ``$x``), a comment, a string, a keyword
# or a function of Go's templates and Helm's Sprig, or a capitalised
# function of an operator (KServe's ``ChildName .ObjectMeta.Name``).  Jinja
# (a chat template inside a value) is left alone: ``{{ messages }}``.
_GO_ACTION = re.compile(
    r"\{\{-?\s*(?:[.$(\"`]|/\*|\d|(?:if|else|end|range|with|define|template|block|include|"
    r"toYaml|toJson|fromYaml|quote|squote|printf|print|default|tpl|required|indent|nindent|trim|"
    r"upper|lower|b64enc|len|index|and|or|not|eq|ne|lt|le|gt|ge|lookup|fail|ternary|coalesce|"
    r"list|dict|get|hasKey|replace|trunc|trimSuffix|toString|int|semverCompare|kindIs|empty)\b|"
    r"[A-Z]\w*\s+[.$])"
)


def _actions(text: str):
    """``(start, end)`` of each Go-template ``{{ ... }}`` action, strings
    inside it honoured (``{{ "}}" }}``, llmaz's ``{{`{{ .ModelPath }}`}}``).
    GitHub's ``${{ ... }}`` is not one."""
    i = text.find("{{")
    n = len(text)
    while i >= 0:
        if (i > 0 and text[i - 1] == "$") or not _GO_ACTION.match(text, i):
            i = text.find("{{", i + 2)
            continue
        k = i + 2
        quote = ""
        while k < n:
            c = text[k]
            if quote:
                if c == "\\" and quote == '"':
                    k += 2
                    continue
                if c == quote:
                    quote = ""
            elif c in "\"`":
                quote = c
            elif c == "}" and text.startswith("}}", k):
                break
            k += 1
        if k >= n:
            return  # an unclosed action: the rest stays as written
        yield i, k + 2
        i = text.find("{{", k + 2)


def _alone(text: str, actions: list[tuple[int, int]]) -> list[bool]:
    """For each action, whether its line holds only actions and blanks."""
    out = []
    for a, b in actions:
        ls = text.rfind("\n", 0, a) + 1
        le = text.find("\n", b)
        le = len(text) if le < 0 else le
        line = text[ls:le]
        rest = []
        pos = ls
        for x, y in actions:
            if y <= ls or x >= le:
                continue
            rest.append(text[pos:max(pos, x)])
            pos = max(pos, y)
        rest.append(text[pos:le])
        out.append(not "".join(rest).strip() and bool(line.strip()))
    return out


def finish(launch: Launch, marks: Marks, text: str, tool: str = "the chart", when: str = "") -> None:
    """Words of ``launch`` made from template actions: inexact, with the
    expression named, and their text as written in ``text`` (the document).
    Words inside a condition's block are present only when it holds.
    ``when`` says when such a value is known, if not "when ``tool`` is
    rendered" (a shell expansion: when the script runs)."""
    if not marks.values and not marks.conditions:
        return
    words = list(launch.args) + list(launch.opaque)
    looped: list[Word] = []
    for w in words:
        made = _mark_value(w, marks, text, tool, when)
        for body, opening in marks.conditions:
            if not (body.start <= w.span.start and w.span.end <= body.end):
                continue
            if body.start < launch.entry_span.start:
                continue  # around the whole resource (``{{- if .Values.enabled }}``), not its argv
            if made and opening.lstrip("{- ").startswith("range"):
                looped.append(w)  # one item per element of a list: any number of words
            elif w.exact:
                w.exact = False
                w.note = f"inside `{' '.join(opening.split())}`: present only when that holds as {tool} is rendered"
            break
    if looped:
        ids = {id(w) for w in looped}
        launch.args = [w for w in launch.args if id(w) not in ids]
        launch.opaque.extend(w for w in looped if w not in launch.opaque)
    if launch.entry_unknown and PLACEHOLDER in launch.entry_unknown:
        inside = [e for s, e in marks.values if launch.entry_span.start <= s.start and s.end <= launch.entry_span.end]
        launch.entry_unknown = _fill(launch.entry_unknown, inside)
    for var in launch.env.values():
        if var.span is not None and var.value is not None and PLACEHOLDER in var.value:
            var.value, var.exact = None, False
    if launch.image is not None and PLACEHOLDER in launch.image:
        launch.image = restore(launch.image, None, text)


def _fill(message: str, expressions: list[str]) -> str:
    """Each run of placeholders in ``message`` replaced by the next expression."""
    it = iter(expressions)
    return re.sub(PLACEHOLDER + "+", lambda m: next(it, "{{…}}"), message)


def _mark_value(w: Word, marks: Marks, text: str, tool: str, when: str = "") -> bool:
    """Mark ``w`` if a template action made it; whether one did."""
    hit = [(s, e) for s, e in marks.values if w.span.start < s.end and s.start < w.span.end]
    if not hit and PLACEHOLDER not in w.text:
        return False
    w.exact = False
    expr = hit[0][1] if hit else "a template expression"
    w.note = f"{expr} is {when}" if when else f"{expr} is filled in when {tool} is rendered"
    if PLACEHOLDER in w.text:
        w.text = restore(w.text, w, text)
    return True


def restore(value: str, w: Word | None, text: str) -> str:
    """``value`` with its placeholders replaced by what is written there."""
    out = []
    for k, c in enumerate(value):
        if c == PLACEHOLDER and w is not None:
            at = w.at(k)
            out.append(text[at] if 0 <= at < len(text) else c)
        else:
            out.append(c)
    got = "".join(out)
    if PLACEHOLDER in got:  # no positions: collapse each run to one marker
        got = re.sub(PLACEHOLDER + "+", "{{…}}", got)
    return got


# -- what a chart's values give a launch ---------------------------------------------
#
# Two shapes only, the ones that say exactly what they put where:
# ``{{ .Values.a.b }}`` (the value at that path, as text) and, alone on its
# line under an ``args:``/``command:`` key, ``{{ toYaml .Values.x | nindent
# N }}`` (the list's items).  A pipeline, a function, ``include``, ``tpl``,
# a condition or a range around them: what they give stays unknown.

_VALUES_PATH = r"\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)"
_SCALAR_REF = re.compile(r"\{\{-?\s*" + _VALUES_PATH + r"\s*-?\}\}\Z")
_LIST_REF = re.compile(r"\{\{-?\s*toYaml\s+" + _VALUES_PATH + r"\s*\|\s*n?indent\s+(\d+)\s*-?\}\}\Z")
_ARGV_KEY = re.compile(r"(?:-\s+)?(args|command)\s*:\s*(?:#.*)?")


@dataclass(slots=True)
class ValuesUse:
    """Where one launch's words come from its chart's values: read from the
    template's text, applied by ``parse.helm.render`` once the engine has
    read the values file."""

    # Index in ``Launch.args`` → the ``.Values`` references inside that word
    # (span of the action, the path).  Only words made of plain references
    # and written text.
    words: dict[int, list[tuple[Span, tuple[str, ...]]]] = field(default_factory=dict)
    # (index in ``Launch.args`` where the items go, span of the action, path).
    lists: list[tuple[int, Span, tuple[str, ...]]] = field(default_factory=list)
    # The container's ``image:`` value made of references (``"{{ .Values.image.repository }}:{{
    # .Values.image.tag }}"``): its span, its text as written, and its references.
    image: tuple[Span, str, list[tuple[Span, tuple[str, ...]]]] | None = None


def values_path(expression: str) -> tuple[str, ...] | None:
    """The path of ``{{ .Values.a.b }}``, else None."""
    m = _SCALAR_REF.match(expression)
    return tuple(m.group(1)[1:].split(".")) if m else None


def values_uses(text: str, launches: list[Launch]) -> list[ValuesUse | None]:
    """For each launch of a chart template ``text``, where its words come
    from the chart's values (None: nowhere)."""
    if ".Values" not in text:
        return [None] * len(launches)
    actions = list(_actions(text))
    masked, marks = mask(text)
    alone = _alone(text, actions)
    refs: list[tuple[Span, tuple[str, ...] | None]] = []
    inserts: list[tuple[Span, tuple[str, ...], int]] = []  # (action, path, offset of the key it is under)
    for (a, b), only in zip(actions, alone):
        written = text[a:b]
        if only:
            m = _LIST_REF.match(written)
            key = _list_key(masked, a, int(m.group(2))) if m else None
            if key is not None:
                inserts.append((Span(a, b), tuple(m.group(1)[1:].split(".")), key))
            continue
        refs.append((Span(a, b), values_path(written)))
    out: list[ValuesUse | None] = []
    for launch in launches:
        use = ValuesUse()
        for i, w in enumerate(launch.args):
            if w.exact or (w.path is not None):
                continue
            hit = [(s, p) for s, p in refs if w.span.start < s.end and s.start < w.span.end]
            if hit and all(p is not None for _, p in hit) and not _inside(marks, w.span, launch.entry_span.start):
                use.words[i] = hit
        region = launch.deployment.span if launch.deployment is not None and launch.deployment.span else launch.span
        for span, path, key in inserts:
            if region.start <= key < region.end and not _inside(marks, span, launch.entry_span.start):
                at = sum(1 for w in launch.args if w.span.start < span.start)
                use.lists.append((at, span, path))
        if launch.image is None and launch.entry_unknown is None and (use.words or use.lists):
            use.image = _image(text, region, refs, marks, launch.entry_span.start)
        out.append(use if use.words or use.lists else None)
    return out


_IMAGE_KEY = re.compile(r"^[ \t]*(?:-[ \t]+)?image:[ \t]*(\S[^\n#]*?)[ \t]*$", re.M)


def _image(text: str, region: Span, refs: list, marks: Marks, after: int):
    """The container's ``image:`` value in ``region``, when it is made of
    plain references (and written text) only."""
    for m in _IMAGE_KEY.finditer(text, region.start, region.end):
        start, end = m.span(1)
        if text[start] in "\"'" and end - start >= 2 and text[end - 1] == text[start]:
            start, end = start + 1, end - 1  # a quoted scalar; no escapes in an image reference
        hit = [(s, p) for s, p in refs if start <= s.start and s.end <= end]
        if not hit or any(p is None for _, p in hit) or _inside(marks, Span(start, end), after):
            return None
        if "{{" in "".join(text[a.end:b.start] for (a, _), (b, _) in zip(hit, hit[1:])) or \
                "{{" in text[start:hit[0][0].start] + text[hit[-1][0].end:end]:
            return None  # another action in it
        return Span(start, end), text[start:end], hit
    return None


def _inside(marks: Marks, span: Span, after: int) -> bool:
    """Whether ``span`` is in the body of a block that changes what it
    gives: any ``range``/``with`` (inside one, ``.Values`` is not the
    chart's values), or an ``if`` that starts after ``after`` (one around
    the whole resource does not decide the launch's words)."""
    for body, opening in marks.conditions:
        if body.start <= span.start and span.end <= body.end:
            keyword = opening.lstrip("{- \t").split(None, 1)[0] if opening.strip("{}- \t") else ""
            if keyword in ("range", "with") or body.start > after:
                return True
    return False


def _list_key(masked: str, at: int, indent: int) -> int | None:
    """The offset of the ``args:``/``command:`` key whose list the items an
    action at ``at`` writes (at ``indent`` columns) join, else None: the
    nearest line above with less indentation (or as much, not an item),
    over blank lines and the list's own items."""
    end = masked.rfind("\n", 0, at)
    while end > 0:
        start = masked.rfind("\n", 0, end) + 1
        line = masked[start:end].rstrip("\r")
        body = line.lstrip(" ")
        col = len(line) - len(body)
        end = start - 1
        if not body or body.startswith("#"):
            continue
        if col > indent or (col == indent and body.startswith("- ")):
            continue  # an item of the same list, or a line inside one
        return start + col if _ARGV_KEY.fullmatch(body) else None
    return None


__all__ = ["PLACEHOLDER", "Marks", "ValuesUse", "mask", "finish", "has_template", "restore", "values_path",
           "values_uses"]
