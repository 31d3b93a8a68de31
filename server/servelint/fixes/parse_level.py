"""Fixes for problems the parsers find (``servelint.rules.meta``).

``--config=FILE`` is silently ignored by vLLM: written as two words, the file
is read.  That is what the user meant, so the fix is safe; it is kept only
if the re-lint shows the file loads (a missing file would now stop vLLM).
``serve`` (or ``vllm serve``) repeated after an image whose entrypoint runs
it goes: the image already says it.
"""

from __future__ import annotations

from typing import Callable

from ..diagnostics import Applicability, Diagnostic, Fix
from ..model import Launch, ParseProblem
from ..parse import problems
from ..edits import remove_words, split_word


def _config_equals(launch: Launch, problem: ParseProblem, text: str, path: str) -> list[Fix]:
    word = next((w for w in launch.args if w.span == problem.span and w.text.startswith("--config=")), None)
    if word is None:
        return []
    edit = split_word(text, launch, word, len("--config"), path)
    if edit is None:
        return []
    return [Fix(f"Use --config {word.text[len('--config='):]}", [edit], applicability=Applicability.SAFE, preferred=True)]


def _serve_repeated(launch: Launch, problem: ParseProblem, text: str, path: str) -> list[Fix]:
    words = [w for w in launch.args if problem.span.start <= w.span.start and w.span.end <= problem.span.end]
    edits = remove_words(lambda p: text if p == path else None, words, path) if words else None
    if not edits:
        return []
    return [Fix(f"Remove {' '.join(w.text for w in words)} (the image runs it)", edits, applicability=Applicability.SAFE, preferred=True)]


_FIXES = {problems.CONFIG_EQUALS_IGNORED: _config_equals, problems.SERVE_REPEATED: _serve_repeated}


def add_fixes(diagnostics: list[Diagnostic], launch: Launch, path: str,
              text_of: Callable[[str], "str | None"]) -> None:
    """Give the diagnostics of a launch's parse problems their (candidate) fixes."""
    text = text_of(path)
    if text is None:
        return
    for d in diagnostics:
        for p in launch.problems:
            make = _FIXES.get(p.code)
            if make is None or p.span != d.span or p.message != d.message or d.path != path:
                continue
            d.fixes = make(launch, p, text, path)
