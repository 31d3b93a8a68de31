"""Release hints and ``# servelint:`` directives, found in any form's text.

These are plain-text patterns that mean the same in a shell script, a YAML
manifest and a Dockerfile, so they are found with one scan of the raw text
rather than by each form's parser.  Which hint applies to which launch is
decided later (``servelint.release``), with the launch's own spans.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from ..model import ParsedDocument, ReleaseHint
from ..text import KnownEdit, Span, edit_between

_VERSION = r"v?(\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)"

_VERSION_DIRECTIVE = re.compile(r"\bvllm[ \t]*=[ \t]*" + _VERSION)

# The scan runs on every keystroke over the whole document, so each pattern
# starts with a literal (Python's re then skips ahead with a fast substring
# search; a leading \b made it try every offset, ~100x slower) and the word
# boundary before it is checked by hand (_starts_word).
# A comment that talks to servelint.  ``#`` starts a comment in every form we
# read; the directive must be the comment's first word.
_DIRECTIVE_AT = re.compile(r"servelint:[ \t]*(?P<body>[^\r\n]*)")
_COMMENT_BEFORE = re.compile(r"(?:^|[ \t])#[ \t]*\Z")
# vllm/vllm-openai:v0.28.0, vllm/vllm-openai:v0.28.0-cu128, docker.io/vllm/vllm-openai:0.28.0
_IMAGE = re.compile(r"vllm/vllm-openai[\w.-]*:" + _VERSION + r"(?:[-\w.]*)")
# pip install vllm==0.27.1, uv pip install "vllm[audio]==0.28.0", a comment "tested with vllm==0.28.0"
_PIN = re.compile(r"vllm(?:\[[^\]\s]*\])?[ \t]*===?[ \t]*" + _VERSION + r"\b")


def _starts_word(text: str, at: int) -> bool:
    return at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_")


def _directives(text: str, start: int, end: int):
    """``# servelint: BODY`` comments (the ``#`` first on the line or after a blank)."""
    for m in _DIRECTIVE_AT.finditer(text, start, end):
        line_start = max(text.rfind("\n", 0, m.start()), text.rfind("\r", 0, m.start())) + 1
        if _COMMENT_BEFORE.search(text[line_start : m.start()]):
            yield m


def _in_comment(text: str, offset: int) -> bool:
    line_start = text.rfind("\n", 0, offset) + 1
    return "#" in text[line_start:offset]


def scan(
    text: str, start: int = 0, end: int | None = None, line: int = 0
) -> tuple[list[ReleaseHint], list[tuple[int, str, Span]]]:
    """All release hints and directives of a document, in text order.

    With ``start``/``end``, those of ``text[start:end]`` only, a run of whole
    lines starting on line ``line``: a YAML stream's documents are scanned
    one by one, and only the edited one again.
    """
    end = len(text) if end is None else end
    found: list[ReleaseHint] = []
    directives: list[tuple[int, str, Span]] = []
    if text.find("servelint:", start, end) >= 0:
        for m in _directives(text, start, end):
            body = m.group("body").rstrip()
            span = Span(m.start("body"), m.start("body") + len(body))
            at = line + text.count("\n", start, m.start("body"))
            directives.append((at, body, span))
            v = _VERSION_DIRECTIVE.search(body)
            if v:
                vs = Span(span.start + v.start(1), span.start + v.end(1))
                found.append(ReleaseHint(_norm(v.group(1)), vs, "directive", body))
    if text.find("vllm", start, end) < 0:
        return found, directives
    for m in _IMAGE.finditer(text, start, end):
        if not _starts_word(text, m.start()):
            continue
        found.append(
            ReleaseHint(_norm(m.group(1)), Span(m.start(), m.end()), "image", m.group(0))
        )
    for m in _PIN.finditer(text, start, end):
        if not _starts_word(text, m.start()):
            continue
        kind = "comment" if _in_comment(text, m.start()) else "pip"
        found.append(ReleaseHint(_norm(m.group(1)), Span(m.start(), m.end()), kind, m.group(0)))
    found.sort(key=lambda h: h.span.start)
    return found, directives


def _norm(version: str) -> str:
    return version.lstrip("v")


def attach(doc: ParsedDocument, text: str, previous: "ParsedDocument | None" = None,
           previous_text: str | None = None, edit: "KnownEdit | None" = None) -> None:
    """``doc``'s release hints and directives.  With the ``previous`` parse
    of ``previous_text`` (the same document before an edit), only the
    lines the edit touched are scanned again."""
    if previous is not None and previous_text is not None:
        hints, directives = rescan(previous.release_hints, previous.directives, previous_text, text, edit)
    else:
        hints, directives = scan(text)
    doc.release_hints = hints
    doc.directives = directives


def _line_start(text: str, at: int) -> int:
    # "\n" only: a pin's kind looks back to there for a "#" (_in_comment).
    return text.rfind("\n", 0, at) + 1


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def rescan(hints: list[ReleaseHint], directives: list[tuple[int, str, Span]], old: str, new: str,
           edit: "KnownEdit | None" = None) -> tuple[list[ReleaseHint], list[tuple[int, str, Span]]]:
    """``scan(new)``, given ``scan(old)``: every pattern matches within one
    line and looks back no further than its start, so the lines an edit
    touched are scanned again, those before it kept and those after it
    moved."""
    if old == new:
        return hints, directives
    start, old_end, new_end = edit_between(old, new, edit)
    rs = _line_start(new, start)  # the text before ``start`` is the same in both
    re_old, re_new = _line_end(old, old_end), _line_end(new, new_end)
    delta = re_new - re_old
    found, said = scan(new, rs, re_new)
    if said:
        first_line = new.count("\n", 0, rs)
        said = [(line + first_line, body, span) for line, body, span in said]
    # The edited lines are [rs, re_old] (an empty directive at a line's
    # end starts on its line break).
    k = bisect_left(hints, rs, key=_hint_start)
    j = bisect_right(hints, re_old, key=_hint_start)
    moved = [ReleaseHint(h.version, h.span.shifted(delta), h.kind, h.text)
             for h in hints[j:]] if delta else hints[j:]
    out_hints = hints[:k] + found + moved
    if not directives:
        return out_hints, said
    lines = new.count("\n", rs, re_new) - old.count("\n", rs, re_old)
    out_directives = [d for d in directives if d[2].start < rs] + said
    out_directives += [(line + lines, body, span.shifted(delta))
                       for line, body, span in directives if span.start > re_old]
    return out_hints, out_directives


def _hint_start(h: ReleaseHint) -> int:
    return h.span.start
