"""Release hints and ``# servelint:`` directives, found in any form's text.

These are plain-text patterns that mean the same in a shell script, a YAML
manifest and a Dockerfile, so they are found with one scan of the raw text
rather than by each form's parser.  Which hint applies to which launch is
decided later (``servelint.release``), with the launch's own spans.
"""

from __future__ import annotations

import re

from ..model import ParsedDocument, ReleaseHint
from ..text import Span

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


def attach(doc: ParsedDocument, text: str) -> None:
    hints, directives = scan(text)
    doc.release_hints = hints
    doc.directives = directives
