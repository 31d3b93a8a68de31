"""Shell scripts → vLLM launches, with tree-sitter-bash.

How a script is read:

1. The form's own variable language runs first (``expand.k8s_expand``,
   ``expand.mask_github``): Kubernetes replaces ``$(VAR)`` before any shell
   starts; GitHub Actions substitutes ``${{ ... }}``, whose value we cannot
   know.
2. tree-sitter-bash parses the text (``grammar``; error-tolerant: half-typed
   input is the normal case in an editor, ``errors`` names what broke).
3. Statements are walked top-down (``walk``) with one simple variable scope
   (``scope``): an assignment is visible to everything after it, a function
   body sees the globals as they are when it is first called, ``local``
   stays in its function, a subshell's changes are dropped.
4. Each command that could launch vLLM has its argv expanded the way bash
   would (``expand.Expander``: quotes removed, ``$VAR`` and
   ``${VAR:-default}`` replaced, unquoted values split into words), every
   character mapped to the document (``source``).
5. ``entry.find_launches`` decides whether that argv launches vLLM; scripts
   inside it (``bash -c``, ``eval``, heredocs fed to a shell) are parsed
   again with their characters still mapped to the document.

A document is read by ``document.parse_shell_document``; after an edit only
the statements it touched are read again (``incremental``).

A value we cannot know (a command's output, a loop variable, a script
argument) keeps its written text and makes the word inexact, with a note that
says why; rules must not reason about such words.
"""

from __future__ import annotations

from .document import parse_shell_document
from .incremental import ShellIncremental
from .walk import ShellResult, parse_shell

__all__ = ["parse_shell", "parse_shell_document", "ShellResult", "ShellIncremental"]
