"""What the flag rules share: "did you mean", and the words argparse reads as true/false."""

from __future__ import annotations

from functools import lru_cache

# The values a switch given a value is most likely meant to have
# (`--enforce-eager=true`, `--enforce-eager false`): their fixes differ.
TRUE_WORDS = ("true", "1", "yes", "on")
FALSE_WORDS = ("false", "0", "no", "off")


def nearest(name: str, candidates: list[str], n: int = 3) -> list[str]:
    """The closest option strings (or values), for "did you mean"."""
    return list(_nearest(name, tuple(candidates), n))


@lru_cache(maxsize=4096)
def _nearest(name: str, candidates: tuple[str, ...], n: int) -> tuple[str, ...]:
    # Imported here: a check that meets no unknown flag skips difflib (~4M
    # instructions of a cold one).
    import difflib

    # difflib over a release's ~500 option strings costs milliseconds, and an
    # editor re-lints the same unknown flag on every keystroke.
    return tuple(difflib.get_close_matches(name, candidates, n=n, cutoff=0.72))
