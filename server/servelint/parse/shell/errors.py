"""Syntax errors in a script, pinned on what caused them and on the launches they touch.

tree-sitter-bash reads broken input without failing (half-typed text is the
normal case in an editor): its ERROR and MISSING nodes are turned into
problems, each named by its culprit (the quote or ``$(`` left open...).
"""

from __future__ import annotations


from tree_sitter import Node

from ...structs import dataclass
from ...model import Launch, ParseProblem
from ...text import Span
from .. import problems
from .source import ScriptText


def attach_errors(script: ScriptText, root: Node, launches: list[Launch], unplaced: list[ParseProblem]) -> None:
    """Syntax errors that touch a launch become its problems.

    Each error is pinned on its culprit (the quote or ``$(`` left open...).
    A launch is affected when the culprit sits on the launch's own lines,
    or when the launch lies in what the open construct swallowed.
    """
    culprits: list[_Culprit] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.is_missing:
            culprits.append(_missing(script, n))
        elif n.is_error:
            culprits.extend(_error_culprits(script, n))
        else:
            stack.extend(c for c in n.children if c.has_error or c.is_missing)
    reach = []
    for launch in launches:
        la = script.local(launch.span.start)
        lb = script.local(launch.span.end)
        line_end = script.src.find("\n", lb)
        reach.append((launch, la, len(script.src) if line_end < 0 else line_end))
    seen: set[tuple[str, Span]] = set()
    for c in culprits:
        if (c.message, c.span) in seen:
            continue
        seen.add((c.message, c.span))
        hit = False
        for launch, la, lend in reach:
            if la <= c.start <= lend or c.start <= la < c.scope_end:
                launch.problems.append(ParseProblem(problems.PARSE_ERROR, c.message, c.span, "error"))
                hit = True
        if not hit and "vllm" in script.src[c.start : c.scope_end]:
            unplaced.append(ParseProblem(problems.PARSE_ERROR, c.message, c.span, "error"))


def _error_culprits(script: ScriptText, n: Node) -> list["_Culprit"]:
    a, b = n.start_byte, n.end_byte
    text = script.src[a:b]
    if not text.replace("\\", "").strip():
        return []  # a trailing ``\`` at the end of the file: bash accepts it
    # An open quote swallows everything after it, closers included, so
    # when there is one it is the only culprit worth naming.
    quotes: list[_Culprit] = []
    for e in _error_nodes(n):
        et = script.src[e.start_byte : e.end_byte]
        stripped = et.lstrip()
        if stripped.startswith("'") and et.count("'") % 2 == 1:
            qa = e.start_byte + len(et) - len(stripped)
            quotes.append(_Culprit(qa, b, "unterminated single quote", script.doc_span(qa, qa + 1)))
        dq = [c for c in e.children if c.type == '"' and not c.is_named]
        if len(dq) % 2 == 1:
            q = dq[-1]
            quotes.append(_Culprit(q.start_byte, b, "unterminated double quote", script.span(q)))
    if quotes:
        return quotes
    out: list[_Culprit] = []
    open_: list[Node] = []
    for c in n.children:
        if c.is_missing:
            out.append(_missing(script, c))
        elif c.type in _OPENERS:
            open_.append(c)
        elif open_ and _OPENERS.get(open_[-1].type) == c.type:
            open_.pop()
    for c in open_:
        what = c.type
        closer = _OPENERS[what]
        message = f"`{what}` without `{closer}`" if what.isalpha() else f"unclosed `{what}`"
        out.append(_Culprit(c.start_byte, b, message, script.span(c)))
    if out:
        return out
    line_end = script.src.find("\n", a)
    end = b if line_end < 0 else min(b, max(line_end, a + 1))
    first = text.strip().split()[0] if text.strip() else text
    return [_Culprit(a, end, f"syntax error near `{first[:20]}`", script.doc_span(a, end))]


def _missing(script: ScriptText, n: Node) -> "_Culprit":
    """A token tree-sitter had to invent (``MISSING``), named by what it closes."""
    parent = n.parent
    opener = parent.children[0] if parent is not None and parent.children else n
    pa = opener.start_byte
    end = max(n.end_byte, pa)
    t = n.type
    if t == "heredoc_end" and parent is not None:
        start = next((c for c in parent.children if c.type == "heredoc_start"), opener)
        delimiter = script.of(start).strip("'\"\\")
        return _Culprit(
            pa, end, f"unterminated heredoc: no line `{delimiter}` ends it",
            script.span(opener).cover(script.span(start)),
        )
    if t == '"':
        message = "unterminated double quote"
    elif t in (")", "}", "))", "]]", "]", "`"):
        message = f"unclosed `{script.of(opener)}`"
    elif t in ("fi", "done", "esac", "then", "do"):
        message = f"`{script.of(opener)}` without `{t}`"
    else:
        message = f"missing `{t}`"
    return _Culprit(pa, end, message, script.span(opener))


@dataclass(slots=True)
class _Culprit:
    """Where a syntax error comes from, and how far what it left open reaches."""

    start: int  # local char index of the culprit
    scope_end: int  # local end of the text it swallowed
    message: str
    span: Span


# Tokens that open a construct, with the token that closes it.
_OPENERS = {
    "$(": ")", "${": "}", "(": ")", "{": "}", "$((": "))", "((": "))",
    "[[": "]]", "if": "fi", "case": "esac", "do": "done",
}


def _error_nodes(n: Node) -> list[Node]:
    """``n`` and the ERROR nodes nested in it."""
    out, stack = [], [n]
    while stack:
        e = stack.pop()
        out.append(e)
        stack.extend(c for c in e.children if c.is_error)
    return out
