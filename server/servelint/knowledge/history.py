"""Which vLLM releases accept an option string.

Answers come from ``data/history.json``, a bit mask per option string over
the known releases, derived by the generator from the per-release flag data;
no release's flag file is loaded.

Strings are normalised the way vLLM's parser reads them first:
``--max_num_partial_prefills=2`` asks about ``--max-num-partial-prefills``.
"""

from __future__ import annotations

from .flags import _read_json, normalise_string

_data: dict | None = None


def _get() -> dict:
    global _data
    if _data is None:
        _data = _read_json("history.json")
    return _data


def _releases_in(mask: int) -> list[str]:
    return [v for i, v in enumerate(_get()["releases"]) if mask >> i & 1]


def releases_with(option_string: str) -> list[str]:
    """Releases (ascending) whose ``vllm serve`` accepts this exact spelling
    (abbreviations are not expanded)."""
    return _releases_in(_get()["strings"].get(normalise_string(option_string), 0))


def releases_with_dest(dest: str) -> list[str]:
    """Releases (ascending) that have an option with this argparse dest."""
    return _releases_in(_get()["dests"].get(dest, 0))


def added_in(option_string: str) -> str | None:
    """The first known release that accepts the string, or None when the
    oldest known release already accepts it (it is older than our data) or
    no release does."""
    have = releases_with(option_string)
    if not have or have[0] == _get()["releases"][0]:
        return None
    return have[0]


def removed_in(option_string: str) -> str | None:
    """The release right after the last one that accepts the string, or
    None when the newest release accepts it or no release does.  A string
    that came and went more than once: see ``releases_with``."""
    releases = _get()["releases"]
    have = releases_with(option_string)
    if not have or have[-1] == releases[-1]:
        return None
    return releases[releases.index(have[-1]) + 1]
