"""The "did you mean" search gives difflib's answer exactly.

``rules.flags._shared.close_matches`` stands in for
``difflib.get_close_matches`` on every unknown flag a keystroke makes (each
letter typed into a flag name is a new word), with two shortcuts that must
never change the answer: character counts made once per candidate list, and
a longest-common-subsequence bound before difflib's ``ratio``.
"""

from __future__ import annotations

import difflib
import random

import pytest

from servelint import knowledge
from servelint.rules.flags._shared import close_matches

LETTERS = "abcdefghijklmnopqrstuvwxyz-_.=0123456789"


def _typos(rng: random.Random, word: str, count: int) -> list[str]:
    out = []
    for _ in range(count):
        chars = list(word)
        for _ in range(rng.randint(0, 4)):
            k = rng.randrange(len(chars) + 1)
            op = rng.random()
            if op < 0.35:
                chars.insert(k, rng.choice(LETTERS))
            elif op < 0.6 and k < len(chars):
                del chars[k]
            elif op < 0.8 and k + 1 < len(chars):
                chars[k], chars[k + 1] = chars[k + 1], chars[k]
            elif k < len(chars):
                chars[k] = rng.choice(LETTERS)
        out.append("".join(chars))
    return out


@pytest.mark.parametrize("release", ["0.25.0", "0.33.0"])
def test_close_matches_are_difflibs(release):
    kn = knowledge.load(release)
    candidates = tuple(kn.long_strings + [s for s in kn.by_string if not s.startswith("--")])
    rng = random.Random(release)
    words = [w for flag in rng.sample(candidates, 50) for w in _typos(rng, flag, 2)]
    words += ["", "-", "--", "--x", "--" + "a" * 80, "--max-model-len", "--tensor-parallel-size=2"]
    for word in words:
        for n, cutoff in ((12, 0.6), (1, 0.85), (2, 1.0)):
            assert close_matches(word, candidates, n, cutoff) == difflib.get_close_matches(
                word, candidates, n, cutoff), (word, n, cutoff)


def test_close_matches_refuses_what_difflib_refuses():
    with pytest.raises(ValueError):
        close_matches("--x", ("--y",), 0, 0.6)
    with pytest.raises(ValueError):
        close_matches("--x", ("--y",), 3, 1.5)


def test_close_matches_keeps_an_empty_candidate_for_an_empty_word():
    assert close_matches("", ("", "--x"), 3, 0.6) == difflib.get_close_matches("", ("", "--x"), 3, 0.6) == [""]
