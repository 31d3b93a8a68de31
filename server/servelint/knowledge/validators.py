"""Where each vLLM check a rule mirrors lives, release by release.

A rule names the checks it mirrors (``VllmCheck``: a key and a *needle*, a
piece of the message as vLLM's source spells it).  ``tools/knowledge/
validators.py`` searches every release's unpacked wheel for each needle and
writes ``data/validators.json``: for each check, the releases that have it,
with the file, the line and the message as a template (``{}`` where vLLM
formats a value).  Nothing here is typed by hand.

The rules read it for three things: the releases a rule applies to (those
that have its check), the "vLLM source" section of its documentation, and
the ``vllm_source`` of each finding.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache

from ..structs import dataclass
from .versions import version_key

_DATA = os.path.join(os.path.dirname(__file__), "data", "validators.json")


@dataclass(frozen=True, slots=True)
class VllmCheck:
    """A check of vLLM's that a rule mirrors.

    ``key`` names it in the table; ``needle`` is a piece of its message as
    vLLM's source spells it (a string literal, implicit concatenations
    joined, an f-string's formatted parts as ``{}``) that identifies it, or
    several, tried in order, where a release reworded the message; ``path``
    narrows the search to one file (relative to the wheel, e.g.
    ``vllm/config/model.py``; any file when None, which needs a needle
    written within one literal piece); ``whole``: the needle is the entire
    message, not a part of it (``"--use-replayssm requires --mamba-backend
    triton"`` is also the start of a longer message); ``code``: the needle
    is a line of code, not a message (a behaviour a derive function
    depends on, such as a key conversion), matched against the source lines
    with their spacing collapsed.
    """

    key: str
    needle: "str | tuple[str, ...]"
    path: str | None = None
    whole: bool = False
    code: bool = False

    @property
    def needles(self) -> tuple[str, ...]:
        return (self.needle,) if isinstance(self.needle, str) else tuple(self.needle)


@dataclass(frozen=True, slots=True)
class Site:
    """One release's copy of a check."""

    file: str
    line: int
    template: str

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@lru_cache(maxsize=1)
def _table() -> dict:
    try:
        with open(_DATA, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return {"releases": [], "checks": {}}


def scanned_releases() -> tuple[str, ...]:
    """The releases the table was generated from, oldest first."""
    return tuple(sorted(_table().get("releases", ()), key=version_key))


def sites(key: str) -> dict[str, Site]:
    """Release → where check ``key`` is, for every scanned release that has it."""
    return _sites(key)


@lru_cache(maxsize=1024)
def _sites(key: str) -> dict[str, Site]:
    entry = _table().get("checks", {}).get(key)
    if entry is None:
        return {}
    out: dict[str, Site] = {}
    for group in entry.get("groups", ()):
        template = group["template"]
        for release, where in group["at"].items():
            file, _, line = where.rpartition(":")
            out[release] = Site(file, int(line), template)
    return dict(sorted(out.items(), key=lambda kv: version_key(kv[0])))


def site(key: str, release: str) -> Site | None:
    return sites(key).get(release)


def has(key: str, release: str) -> bool:
    """Whether ``release``'s code has fact ``key`` (a check or a line of code)."""
    return site(key, release) is not None


def needle_of(key: str) -> str | None:
    entry = _table().get("checks", {}).get(key)
    return None if entry is None else entry.get("needle")


def stored_needle(check: VllmCheck):
    """How a check's needle is kept in the table (JSON)."""
    needle = check.needle if isinstance(check.needle, str) else list(check.needle)
    if check.code:
        return {"code": needle}
    return {"whole": needle} if check.whole else needle
