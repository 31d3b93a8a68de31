"""What the flag rules share: "did you mean" (real near misses only), and the
words argparse reads as true/false."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

# The values a switch given a value is most likely meant to have
# (`--enforce-eager=true`, `--enforce-eager false`): their fixes differ.
TRUE_WORDS = ("true", "1", "yes", "on")
FALSE_WORDS = ("false", "0", "no", "off")


def nearest(name: str, candidates: Sequence[str], n: int = 3) -> list[str]:
    """The option strings ``name`` is a near miss of, closest first, for
    "did you mean" (``near_miss`` says what counts)."""
    return list(_nearest(name, tuple(candidates), n))


@lru_cache(maxsize=4096)
def _nearest(name: str, candidates: tuple[str, ...], n: int) -> tuple[str, ...]:
    # difflib orders the candidates; near_miss then keeps only real near
    # misses.  Cached: an editor re-lints the same unknown flag on every
    # keystroke, and difflib over ~500 strings costs milliseconds.
    close = close_matches(name, candidates, n=12, cutoff=0.6)
    short = [c for c in candidates if not c.startswith("--") and c == "-" + name[2:]]
    return tuple((short + [c for c in close if near_miss(name, c)])[:n])


def close_matches(word: str, possibilities: tuple[str, ...], n: int, cutoff: float) -> list[str]:
    """``difflib.get_close_matches(word, possibilities, n, cutoff)``, the same
    list, at a fraction of the cost: every new word typed into a flag name is
    a new call over a release's ~500 option strings.

    difflib keeps a candidate whose ``real_quick_ratio``, ``quick_ratio`` and
    ``ratio`` all reach ``cutoff``.  Here ``quick_ratio`` (2·matches/total,
    matches: the characters the two share, with repeats) is computed from
    character counts made once per candidate list, and a candidate whose
    longest common subsequence with ``word`` is too short to reach
    ``cutoff`` is dropped before ``ratio``: ``ratio``'s matching blocks are
    a common subsequence, so it is never above that bound.  ``ratio`` itself,
    and the order of what is kept, are difflib's.
    """
    # Imported here: a check that meets no unknown flag skips difflib (~4M
    # instructions of a cold one).
    import difflib
    import heapq

    if not n > 0:
        raise ValueError(f"n must be > 0: {n!r}")
    if not 0.0 <= cutoff <= 1.0:
        raise ValueError(f"cutoff must be in [0.0, 1.0]: {cutoff!r}")
    counts = _char_counts(possibilities)
    lb = len(word)
    wanted: dict[str, int] = {}
    for ch in word:
        wanted[ch] = wanted.get(ch, 0) + 1
    masks: dict[str, int] = {}
    for i, ch in enumerate(word):
        masks[ch] = masks.get(ch, 0) | (1 << i)
    full = (1 << lb) - 1
    s = difflib.SequenceMatcher()
    s.set_seq2(word)
    result = []
    for x, have in zip(possibilities, counts):
        total = len(x) + lb
        if not total:
            result.append((1.0, x))  # two empty strings: difflib's ratio is 1.0
            continue
        if 2.0 * min(len(x), lb) / total < cutoff:  # real_quick_ratio
            continue
        matches = 0
        for ch, k in have:
            got = wanted.get(ch)
            if got:
                matches += k if k < got else got
        if 2.0 * matches / total < cutoff:  # quick_ratio
            continue
        if 2.0 * _lcs_length(x, masks, full) / total < cutoff:
            continue
        s.set_seq1(x)
        score = s.ratio()
        if score >= cutoff:
            result.append((score, x))
    return [x for _, x in heapq.nlargest(n, result)]


@lru_cache(maxsize=16)
def _char_counts(possibilities: tuple[str, ...]) -> list[tuple[tuple[str, int], ...]]:
    out = []
    for x in possibilities:
        c: dict[str, int] = {}
        for ch in x:
            c[ch] = c.get(ch, 0) + 1
        out.append(tuple(c.items()))
    return out


def _lcs_length(a: str, masks: dict[str, int], full: int) -> int:
    """The longest common subsequence of ``a`` and the word ``masks`` was
    made of (each character's positions as bits, ``full`` all of them):
    Allison and Dix's bit-parallel count, one pass over ``a``."""
    row = full
    for ch in a:
        m = masks.get(ch)
        if m:
            u = row & m
            row = ((row + u) | (row - u)) & full
    return full.bit_count() - row.bit_count()


def _distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (a swap of two neighbours counts
    once), or ``limit + 1`` when it exceeds ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] | None = None
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = ca != cb
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if prev2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


def _common_prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def near_miss(written: str, candidate: str) -> bool:
    """Is ``candidate`` what someone who typed ``written`` most likely meant?

    A real near miss is a typo (one or two characters, by length), one word
    of the flag cut short or lengthened (``--max-model-length`` for
    ``--max-model-len``), one word left out or added
    (``--served-model`` for ``--served-model-name``), or its words
    reordered.  Two flags that only share words are not
    (``--guided-decoding-backend`` is not ``--kda-decode-backend``,
    ``--num-scheduler-steps`` is not ``--max-num-scheduled-tokens``).
    """
    a, b = written.lstrip("-"), candidate.lstrip("-")
    if not a or not b or a == b:
        return False
    limit = 1 if min(len(a), len(b)) < 8 else 2
    if _distance(a, b, limit) <= limit:
        return True
    ta, tb = a.split("-"), b.split("-")
    if len(ta) == len(tb):
        if sorted(ta) == sorted(tb):
            return True
        diff = [(x, y) for x, y in zip(ta, tb) if x != y]
        if len(diff) == 1:
            x, y = diff[0]
            shorter = min(len(x), len(y))
            if shorter >= 3 and (x.startswith(y) or y.startswith(x)):
                return True
            if shorter >= 4 and _distance(x, y, 1) <= 1:
                return True
            # the same word with another ending ("cache" / "caching")
            common = len(_common_prefix(x, y))
            if shorter >= 4 and common >= max(4, shorter - 1):
                return True
        return False
    if abs(len(ta) - len(tb)) == 1:
        short, long = (ta, tb) if len(ta) < len(tb) else (tb, ta)
        if len(short) >= 2:
            for k in range(len(long)):
                if long[:k] + long[k + 1:] == short:
                    return True
    return False
