"""What servelint knows about each vLLM release, generated from vLLM itself.

    from servelint import knowledge
    knowledge.RELEASES                 # ("0.25.0", ..., "0.33.0"), ascending
    knowledge.NEWEST                   # "0.33.0"
    kn = knowledge.load("0.33.0")      # cached; UnknownRelease (a KeyError) if unknown
    kn.by_string["--use-replayssm"].kind
    kn.architectures["NemotronHForCausalLM"].supports_replayssm
    knowledge.history.added_in("--use-replayssm")

The data in ``data/`` is produced by ``tools/knowledge/generate.py`` from
each release's wheel and checked in; see ``tools/knowledge/README.md``.
"""

from __future__ import annotations

from . import history
from .flags import (
    ArchFacts,
    Architectures,
    Knowledge,
    Option,
    ReleaseKnowledge,
    UnknownRelease,
    available_releases,
    canonical_version,
    load,
    normalise_string,
)

RELEASES: tuple[str, ...] = available_releases()
NEWEST: str = RELEASES[-1] if RELEASES else ""

__all__ = [
    "ArchFacts",
    "Architectures",
    "Knowledge",
    "NEWEST",
    "Option",
    "RELEASES",
    "ReleaseKnowledge",
    "UnknownRelease",
    "canonical_version",
    "history",
    "load",
    "normalise_string",
]
