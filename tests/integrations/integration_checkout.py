"""This checkout as its users get it: the files git would commit (tracked and
new, not ignored), copied out of the working tree."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}


def git(cwd: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV}, capture_output=True,
                          text=True, check=True)
    return proc.stdout.strip()


def copy_checkout(dest: Path) -> Path:
    """The working tree's files into ``dest`` (no .venv, no node_modules, no
    build output): what a clone of the repository holds, uncommitted changes
    included.  Installing from it leaves nothing behind in this checkout."""
    names = git(ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0")
    for name in filter(None, names):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def commit_checkout(dest: Path) -> tuple[Path, str]:
    """``copy_checkout`` as a git repository of its own: (path, commit)."""
    copy_checkout(dest)
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "snapshot")
    return dest, git(dest, "rev-parse", "HEAD")
