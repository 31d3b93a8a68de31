"""Which vLLM releases accept an option string, and what became of one
that a release dropped.

Answers come from ``data/history.json.gz``: a bit mask per option string over
the known releases, per entry point (``serve``: ``vllm serve``;
``api_server``: ``python -m vllm.entrypoints.openai.api_server``), and for
each ``vllm serve`` string that a release dropped, the change the generator
read from the tables of the release before and the release that dropped it
(renamed to another flag, moved into a JSON-valued option, or removed).  No
release's own file is loaded.

Strings are normalised the way vLLM's parser reads them first:
``--max_num_partial_prefills=2`` asks about ``--max-num-partial-prefills``.
"""

from __future__ import annotations

from .flags import _read_json, normalise_string

_data: dict | None = None


def _get() -> dict:
    global _data
    if _data is None:
        _data = _read_json("history.json.gz")
    return _data


def clear_cache() -> None:
    global _data
    _data = None


def releases() -> list[str]:
    """Every release the history covers, ascending."""
    return list(_get()["releases"])


def _releases_in(mask: int) -> list[str]:
    return [v for i, v in enumerate(_get()["releases"]) if mask >> i & 1]


def _table(entry: str) -> dict:
    tables = _get()["entries"]
    return tables.get(entry) or tables["serve"]


def releases_with(option_string: str, entry: str = "serve") -> list[str]:
    """Releases (ascending) whose parser of ``entry`` accepts this exact
    spelling (abbreviations are not expanded)."""
    return _releases_in(_table(entry)["strings"].get(normalise_string(option_string), 0))


def releases_with_dest(dest: str, entry: str = "serve") -> list[str]:
    """Releases (ascending) that have an option with this argparse dest."""
    return _releases_in(_table(entry)["dests"].get(dest, 0))


def releases_of(entry: str) -> list[str]:
    """Releases (ascending) that have entry point ``entry`` at all: those
    whose parser of it has any option."""
    table = _get()["entries"].get(entry)
    mask = 0
    for m in (table or {}).get("dests", {}).values():
        mask |= m
    return _releases_in(mask)


def added_in(option_string: str, entry: str = "serve") -> str | None:
    """The first known release that accepts the string, or None when the
    oldest known release already accepts it (it is older than our data) or
    no release does."""
    have = releases_with(option_string, entry)
    if not have or have[0] == _get()["releases"][0]:
        return None
    return have[0]


def removed_in(option_string: str, entry: str = "serve") -> str | None:
    """The release right after the last one that accepts the string, or
    None when the newest release accepts it or no release does.  A string
    that came and went more than once: see ``releases_with``."""
    known = _get()["releases"]
    have = releases_with(option_string, entry)
    if not have or have[-1] == known[-1]:
        return None
    return known[known.index(have[-1]) + 1]


def change(option_string: str) -> dict | None:
    """What became of a ``vllm serve`` string no longer accepted by the
    newest release: ``{"kind": "renamed"|"moved"|"removed", "release": the
    release that dropped it, "last": the last release that accepted it,
    "to": "--new-flag" (renamed), "into": "--x-config", "key": "k"
    (moved), "why": what in the tables says so}``; None when the newest
    release accepts the string or no release ever did."""
    got = _get()["changes"].get(normalise_string(option_string))
    return dict(got) if got else None
