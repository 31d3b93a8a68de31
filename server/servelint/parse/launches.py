"""The launches an argv starts, scripts it runs included: ``entry``'s finder
with the shell parser for ``sh -c SCRIPT``, ``eval`` and the like.

What the YAML and Dockerfile forms call.  The shell parser (tree-sitter-bash)
is loaded only when an argv runs a script: most manifests run none.
"""

from __future__ import annotations

from ..model import Launch, Word
from . import entry


def parse_script(text: str, **kwargs):
    """``shell.parse_shell``, imported on first use."""
    from .shell import parse_shell

    return parse_shell(text, **kwargs)


def find_launches(words: list[Word], **kwargs) -> list[Launch]:
    """``entry.find_launches`` reading the scripts the argv runs."""
    return entry.find_launches(words, parse_script=parse_script, **kwargs)


def find_launch(words: list[Word], **kwargs) -> Launch | None:
    """``entry.find_launch`` reading the scripts the argv runs."""
    return entry.find_launch(words, parse_script=parse_script, **kwargs)
