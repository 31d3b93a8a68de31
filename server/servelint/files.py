"""Which files ``servelint check`` (and the language server's workspace scan) read.

A directory is walked in a stable order, skipping version-control, cache and
virtual-environment folders; a file is taken when its name or its first line
(a shebang) names a launch form servelint reads.
"""

from __future__ import annotations

import os
from typing import Iterator

SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".tox", ".nox", ".mypy_cache",
             ".pytest_cache", ".ruff_cache", "site-packages", ".venv", "venv", ".hypothesis"}


def _is_virtualenv(path: str) -> bool:
    return os.path.exists(os.path.join(path, "pyvenv.cfg"))


def walk(paths: list[str]) -> Iterator[str]:
    """Files to check, in a stable order; directories are walked."""
    from .parse import kind_of

    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(
                    d for d in dirs if d not in SKIP_DIRS and not _is_virtualenv(os.path.join(root, d))
                )
                for name in sorted(files):
                    full = os.path.join(root, name)
                    # Only regular files: opening a FIFO found in the tree would block forever.
                    # The head (a shebang) is read only when the name does not decide.
                    if os.path.isfile(full) and (kind_of(full, "") or kind_of(full, _head(full))) is not None:
                        yield full
        else:
            yield path


def _head(path: str) -> str:
    """The start of a file, enough to see a shebang."""
    try:
        with open(path, "rb") as fh:
            return fh.read(128).decode("utf-8", "replace")
    except OSError:
        return ""
