"""Fixes for problems the parsers find (``servelint.rules.meta``).

``--config=FILE`` is silently ignored by vLLM: written as two words, the file
is read.  That is what the user meant, so the fix is safe; it is kept only
if the re-lint shows the file loads (a missing file would now stop vLLM).
``serve`` (or ``vllm serve``) repeated after an image whose entrypoint runs
it goes: the image already says it.  One argument holding a flag and its
value (or several flags) is written as the arguments it holds.
"""

from __future__ import annotations

from typing import Callable

from ..diagnostics import Applicability, Diagnostic, Fix
from ..model import Launch, ParseProblem
from ..parse import problems
from ..parse.entry import joined_parts
from ..edits import remove_words, split_into_words, split_word


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


def _split(part: str) -> list[str]:
    """A part after ``--flag=value`` may itself be a flag and its value."""
    again = joined_parts(part)
    return [part[a:b] for a, b in again] if again and len(again) > 1 else [part]


def _joined_argument(launch: Launch, problem: ParseProblem, text: str, path: str) -> list[Fix]:
    parts = [q for p in problem.data.get("parts", ()) for q in _split(p["text"])]
    if not problem.data.get("in_place") or not parts:
        return []  # built from a variable: the file has no word to split
    word = next((w for w in launch.args if w.span == problem.span), None)
    if word is None:
        return []
    edit = split_into_words(text, launch, word, parts, path)
    if edit is None:
        return []
    if len(parts) == 1:
        title = f"Remove the whitespace after {parts[0]}"
    else:
        title = "Write " + " ".join(parts) + f" as {len(parts)} arguments"
    # A `--flag=value --other` word is accepted today, with another value.
    unsafe = problem.data.get("kind") == "several-flags" and "=" in parts[0]
    applicability = Applicability.UNSAFE if unsafe else Applicability.SAFE
    return [Fix(title, [edit], applicability=applicability, preferred=True)]


_FIXES = {
    problems.CONFIG_EQUALS_IGNORED: _config_equals,
    problems.SERVE_REPEATED: _serve_repeated,
    problems.JOINED_ARGUMENT: _joined_argument,
}


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
