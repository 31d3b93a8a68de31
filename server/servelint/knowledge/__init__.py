"""What servelint knows about each vLLM release, generated from vLLM itself.

    from servelint import knowledge
    knowledge.RELEASES                 # ("0.25.0", ..., "0.33.0"), ascending
    knowledge.NEWEST                   # "0.33.0"
    kn = knowledge.load("0.33.0")      # `vllm serve`; cached; UnknownRelease (a KeyError) if unknown
    kn.by_string["--use-replayssm"].kind
    kn.architectures["NemotronHForCausalLM"].supports_replayssm
    kn.for_entry("api_server")         # python -m vllm.entrypoints.openai.api_server
    kn.facts["model_flag"]             # what the parser does with --model, observed
    knowledge.history.added_in("--use-replayssm")
    knowledge.history.change("--guided-decoding-backend")   # renamed / moved / removed

The data in ``data/`` is produced by ``tools/knowledge/generate.py`` from
each release's wheel and checked in; see ``tools/knowledge/README.md``.
"""

from __future__ import annotations

from . import history
from .flags import (
    ENTRY_POINTS,
    ArchFacts,
    Architectures,
    Knowledge,
    Option,
    ReleaseFile,
    ReleaseKnowledge,
    UnknownRelease,
    available_releases,
    canonical_version,
    load,
    normalise_string,
    release_file,
)

RELEASES: tuple[str, ...] = available_releases()
NEWEST: str = RELEASES[-1] if RELEASES else ""

__all__ = [
    "ENTRY_POINTS",
    "ArchFacts",
    "Architectures",
    "Knowledge",
    "NEWEST",
    "Option",
    "RELEASES",
    "ReleaseFile",
    "ReleaseKnowledge",
    "UnknownRelease",
    "canonical_version",
    "history",
    "load",
    "normalise_string",
    "release_file",
]
