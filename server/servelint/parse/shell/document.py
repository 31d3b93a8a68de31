"""A shell script document → its launches (``parse_shell_document``).

An edit re-reads what it touched (``incremental.reparse``) when it can.  A
script with more launches than the engine checks (``max_launches``) is read
only as far as the first launch past the limit, and only its head is parsed
when that gives exactly what parsing the whole text would.
"""

from __future__ import annotations

import os

from ...model import Form, ParsedDocument
from ...text import KnownEdit, Span
from .grammar import ascii_only
from .incremental import ShellIncremental, Tops, reparse
from .walk import ReadYaml, ShellResult, Walker


def parse_shell_document(path: str, text: str, previous: ParsedDocument | None = None,
                         max_launches: int = 0, edit: "KnownEdit | None" = None,
                         read_yaml: "ReadYaml | None" = None) -> ParsedDocument:
    """A shell script (``.sh``, ``.sbatch``...) → its launches.

    With ``previous`` (the last parse of the same document), only the
    top-level statements an edit touched are read again when that is safe;
    the result is the same as a full parse (tests check it on random edits).
    ``read_yaml`` reads the launches of a manifest a heredoc writes
    (``Walker.read_yaml``); without it such manifests are not read.
    """
    prev = getattr(previous, "cache", None) if previous is not None else None
    if isinstance(prev, ShellIncremental) and (prev.unread is None or prev.max_launches == max_launches):
        doc = reparse(path, text, prev, max_launches, edit)
        if doc is not None:
            return doc
    if max_launches:
        doc = _head_only(path, text, max_launches, read_yaml)
        if doc is not None:
            return doc
    try:
        walker, result = _walk(text, max_launches, read_yaml)
    except Exception:  # noqa: BLE001 - this runs on every keystroke
        if os.environ.get("SERVELINT_STRICT"):
            raise
        return ParsedDocument(path=path, form=Form.SHELL)
    if walker.unread is not None and walker.tops is None:
        # A syntax error somewhere: tree-sitter's recovery can reshape the
        # statements before the launch limit too.  Bash runs those before it
        # ever reads the error, and so does servelint when they parse alone.
        at = walker.unread
        for _ in range(4):
            doc, found = _prefix_only(path, text, at, max_launches, read_yaml)
            if doc is not None:
                return doc
            # The prefix alone may find the launch past the limit earlier
            # (recovery hid one before it): try the prefix up to that one.
            if found is None or found.start >= at.start:
                break
            at = found
    doc = ParsedDocument(
        path=path,
        form=Form.SHELL,
        launches=result.launches,
        problems=result.problems,
        config_refs=result.config_refs,
        unread=walker.unread,
    )
    if walker.tops is not None and not result.problems and (walker.unread is None or walker.stopped_early):
        _keep(doc, text, walker, result)
    return doc


def _walk(text: str, limit: int, read_yaml: "ReadYaml | None" = None) -> "tuple[Walker, ShellResult]":
    """A whole script's walk, statement by statement, reading at most
    ``limit`` launches (0: all)."""
    walker = Walker(text, ascii_only(text), None, 0, Form.SHELL, {}, "shell", [], None)
    walker.tops = []
    walker.max_launches = limit
    walker.read_yaml = read_yaml
    return walker, walker.run()


def _keep(doc: ParsedDocument, text: str, walker: "Walker", result: ShellResult) -> None:
    """What a later edit of ``text`` can re-read in part, on ``doc``."""
    if walker.embedded:
        # A manifest written by a heredoc is YAML: the shell's moves do not
        # shift what the YAML reader keeps (its containers), so every edit
        # reads the script again.
        return
    doc.cache = ShellIncremental(text, Tops(walker.tops, [], len(text)), result.launches, result.problems,
                                 frozenset(walker.scope.assigned), walker.scope.sourced,
                                 with_refs=frozenset(id(l) for l, _ in result.config_refs),
                                 unread=walker.unread, max_launches=walker.max_launches,
                                 prefix_end=_prefix_end(text, walker), in_calls=frozenset(walker.in_calls))


def _limited(path: str, text: str, walker: "Walker", result: ShellResult) -> ParsedDocument:
    """The parse of ``text`` that a clean walk of part of it (stopped at the
    launch limit) gives."""
    doc = ParsedDocument(path=path, form=Form.SHELL, launches=result.launches, problems=[],
                         config_refs=result.config_refs, unread=walker.unread)
    _keep(doc, text, walker, result)
    return doc


def _prefix_end(text: str, walker: "Walker") -> int:
    """For a parse that stopped at the launch limit: where the text it
    depends on ends (-1 when that is not known).

    That is the end of the line holding the first launch past the limit,
    and of the lines a ``\\`` continues it onto (``_continued``), when the
    walk stopped in a top-level statement that holds the launch, ends on
    the last of those lines and has no heredoc.  Every statement read is
    then complete in that prefix, and parses there as in the whole text."""
    unread, tops = walker.unread, walker.tops
    # Stopped at a launch written in the statement, not in a function body
    # (read where it is called, or after the walk).
    if unread is None or not tops or not walker.stopped_in_walk:
        return -1
    last = tops[-1]
    if not last.start <= unread.start < unread.end <= last.end:
        return -1
    end = _continued(text, unread.end)
    if end < 0 or text.find("\n", last.end) != end or "<<" in text[last.start : end]:
        return -1
    return end + 1


def _continued(text: str, at: int) -> int:
    """The line break ending the line at ``at`` and those a trailing ``\\``
    joins to it; -1 if the text ends first."""
    nl = text.find("\n", at)
    while nl >= 0:
        k = nl - 1
        if k >= 0 and text[k] == "\r":
            k -= 1
        if k < 0 or text[k] != "\\":
            return nl
        nl = text.find("\n", nl + 1)
    return -1


def _prefix_only(path: str, text: str, unread: Span, limit: int,
                 read_yaml: "ReadYaml | None" = None) -> tuple[ParsedDocument | None, Span | None]:
    """The parse of ``text`` up to the end of ``unread``'s line (and its
    continuation lines), alone, when that prefix parses without error and is
    all a parse stopping at the limit reads (``_prefix_end``); else None.
    Also where that prefix's own parse stopped."""
    end = _continued(text, unread.end)
    if end < 0:
        return None, None
    head = text[: end + 1]
    try:
        walker, result = _walk(head, limit, read_yaml)
    except Exception:  # noqa: BLE001 - the whole parse stands
        return None, None
    if walker.tops is None or result.problems or _prefix_end(head, walker) != len(head):
        return None, walker.unread
    return _limited(path, text, walker, result), walker.unread


def _head_only(path: str, text: str, limit: int, read_yaml: "ReadYaml | None" = None) -> ParsedDocument | None:
    """The parse of a script with far more launches than ``limit``, reading
    only its head; None when the whole script must be read.

    A full parse stops reading at the first command past the limit, but
    tree-sitter would still parse all of it first: 0.2 s for 10,000 launch
    lines.  The head ends after twice as many mentions of vllm as the limit
    needs (every launch mentions it, in a command, image, module or the
    variable holding one).  Its statements parse as they do in the whole
    text when the head has no syntax error and no heredoc (whose body may go
    on past it), and the walk stops before its last statement (which may
    go on past it)."""
    low = text.lower()
    at = -1
    for _ in range(2 * (limit + 1)):
        at = low.find("vllm", at + 1)
        if at < 0:
            return None
    end = text.find("\n", at)
    if end < 0:
        return None
    head = text[: end + 1]
    if "<<" in head:
        return None
    try:
        walker, result = _walk(head, limit, read_yaml)
    except Exception:  # noqa: BLE001 - the full parse decides
        return None
    if walker.tops is None or result.problems or walker.unread is None or not walker.stopped_early:
        return None
    return _limited(path, text, walker, result)
