"""Parsers: every launch form → ``Launch`` objects with exact source spans.

``parse_document`` picks the parser from the file name, then from the content.
Each parser module exposes one function taking the document text and returning
a ``ParsedDocument``; parsers know nothing of vLLM releases or rules.
"""

from __future__ import annotations

import os
import re

from ..model import Form, ParsedDocument
from ..text import KnownEdit
from . import deployment_argv, hints

_SHELL_EXT = (".sh", ".bash", ".zsh", ".ksh", ".sbatch", ".slurm")
_YAML_EXT = (".yaml", ".yml")
_SHEBANG = re.compile(r"\A#![^\n]*\b(?:ba|z|k|da)?sh\b")


def kind_of(path: str, text: str, language_id: str | None = None) -> str | None:
    """'shell', 'yaml', 'dockerfile' or 'makefile' for a document, or None if not ours."""
    if language_id in ("shellscript", "sh", "bash"):
        return "shell"
    if language_id in ("yaml", "dockercompose"):
        return "yaml"
    if language_id == "dockerfile":
        return "dockerfile"
    if language_id == "makefile":
        return "makefile"
    name = os.path.basename(path).lower()
    if name.endswith(_SHELL_EXT):
        return "shell"
    if name.endswith(_YAML_EXT):
        return "yaml"
    if name == "dockerfile" or name.startswith("dockerfile.") or name.endswith(
        (".dockerfile", ".containerfile")
    ) or name == "containerfile":
        return "dockerfile"
    if name in ("makefile", "gnumakefile") or name.endswith(".mk") or name.startswith("makefile."):
        return "makefile"
    if _SHEBANG.match(text):
        return "shell"
    return None


def parse_document(
    path: str, text: str, language_id: str | None = None, previous: ParsedDocument | None = None,
    max_launches: int = 0, edit: "KnownEdit | None" = None,
) -> ParsedDocument:
    """Parse one document into launches.  Never raises on bad input.

    ``previous`` is the last parse of the same document: parsers that can
    re-read only what an edit touched use it (the result is the same).
    ``max_launches`` (0: all): the caller checks no more launches than this;
    a parser may stop reading them there and say where (``unread``), or
    return them all.  ``edit``: the edit from ``previous``'s text to
    ``text``, when the caller found it already (``text.edit_between``).
    """
    kind = kind_of(path, text, language_id)
    if kind == "shell":
        from .shell import ShellIncremental, parse_shell_document

        doc = parse_shell_document(path, text, previous, max_launches, edit, _embedded_yaml)
        # A batch job's #SBATCH lines apply to every launch of the script.
        deployment_argv.link_sbatch(doc.launches, text)
        before = previous.cache if previous is not None else None
        if isinstance(before, ShellIncremental):
            # The same script before an edit: only the lines it touched
            # are scanned for release hints again.
            hints.attach(doc, text, previous, before.text, edit)
            return doc
    elif kind == "yaml":
        from .yamlforms import parse_yaml_document

        # It finds the release hints itself, document by document, so that
        # an edit scans only the document it changed.
        return parse_yaml_document(path, text, previous, max_launches, edit)
    elif kind == "dockerfile":
        from .dockerfile import parse_dockerfile_document

        doc = parse_dockerfile_document(path, text)
    elif kind == "makefile":
        from .makefile import parse_makefile_document

        doc = parse_makefile_document(path, text)
    else:
        doc = ParsedDocument(path=path, form=None)
    hints.attach(doc, text)
    return doc


def _embedded_yaml(*args):
    """YAML a shell heredoc holds, read by the YAML forms' reader (imported
    only when a script holds such a heredoc)."""
    from .yamlforms import embedded_launches

    return embedded_launches(*args)


__all__ = ["parse_document", "kind_of", "Form"]
