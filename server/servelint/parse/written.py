"""Files a script writes from a heredoc (``cat > config.yaml <<EOF``), read
as what they are when a launch names one: its ``--config`` file.

The shell walker records each write (``WrittenFile``: the text written,
every character mapped to the script, and where expansions left values
unknown); a launch whose ``--config PATH`` names a file the script wrote
before it gets that file as ``Launch.written_config``, a config launch whose
words sit inside the heredoc.  The engine uses it instead of reading PATH.
"""

from __future__ import annotations

import posixpath

from ..structs import dataclass, field
from ..model import Form, Launch
from ..text import Span
from .words import MStr


@dataclass(slots=True)
class WrittenFile:
    path: str  # as the script names it
    text: MStr  # what is written, mapped to the document
    span: Span  # the command that writes it
    # Expansions whose value is not known here: (where, why).
    unknown: list[tuple[Span, str]] = field(default_factory=list)


def key(path: str) -> str:
    """The name two mentions of one file share (``./cfg.yaml`` is ``cfg.yaml``)."""
    return posixpath.normpath(path) if path else path


def config_of(written: WrittenFile) -> Launch | None:
    """The written file read as a vLLM ``--config`` YAML, or None when it is
    not one (not a mapping, not YAML)."""
    # The YAML reader is loaded only for a script that writes a file: a
    # shell script is read without it.
    from yaml.nodes import MappingNode

    from . import yamlnodes as yn
    from .vllm_config import config_launch

    m = written.text
    roots, problem = yn.compose_text(m.text)
    if problem is not None or len(roots) != 1 or roots[0] is None:
        return None
    root = roots[0]
    if not isinstance(root, MappingNode):
        return None
    src = yn.Src(m.text, 0, m.offsets() or [written.span.start])
    launch = config_launch(src, root, Form.VLLM_CONFIG)
    for w in launch.args:
        for span, why in written.unknown:
            if w.span.start < span.end and span.start < w.span.end or w.span == span:
                w.exact = False
                w.note = why
                break
    return launch


__all__ = ["WrittenFile", "config_of", "key"]
