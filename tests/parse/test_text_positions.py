"""LSP positions of document offsets: UTF-16 code units by default, and the
same answers whether or not the text is all ASCII (an ASCII-only text takes
a path that never copies a line)."""

from __future__ import annotations

import random

import pytest

from servelint.text import SourceText


def _units(text: str, encoding: str) -> int:
    if encoding == "utf-32":
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    return len(text.encode("utf-16-le")) // 2


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
def test_positions_and_offsets_round_trip(encoding: str) -> None:
    rng = random.Random(7)
    for _ in range(300):
        text = "".join(rng.choice(["a", " ", "\n", "\r\n", "é", "😀", "--port"]) for _ in range(rng.randrange(0, 40)))
        src = SourceText(text, encoding)
        for offset in range(len(text) + 1):
            line, col = src.position(offset)
            line_start = src.line_start(line)
            assert col == _units(text[line_start:offset], encoding), (text, offset)
            if offset <= src.line_end(line):
                assert src.offset_at(line, col) == offset


def test_an_ascii_text_has_code_point_columns_on_a_long_line() -> None:
    text = "#!/bin/sh\nvllm serve m " + "--port 8000 " * 9000 + "\n"
    src = SourceText(text)
    at = text.rindex("--port")
    assert src.position(at) == (1, at - len("#!/bin/sh\n"))
    assert src.offset_at(1, 10**9) == len(text) - 1


@pytest.mark.parametrize("seed", range(6))
def test_a_line_index_derived_through_edits_answers_as_a_fresh_one(seed: int) -> None:
    # The engine derives each keystroke's line index from the previous one;
    # every answer must be the one a fresh index of the same text gives,
    # however many edits (and rebuilds) lie in between.
    from servelint.text import edit_range

    rng = random.Random(seed)
    pieces = ["a", " ", "\n", "\n\n", "é", "😀", "--port 1", "\r\n" if seed == 5 else "b"]
    text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 200)))
    src = SourceText(text)
    src.line_count  # noqa: B018 - an editor's first lint has its positions read
    for _ in range(150):
        a = rng.randrange(0, len(text) + 1)
        b = min(len(text), a + rng.choice([0, 0, 1, 2, 10]))
        new = text[:a] + "".join(rng.choice(pieces) for _ in range(rng.choice([0, 1, 1, 3]))) + text[b:]
        src = SourceText(new, edited=(src, *edit_range(text, new)))
        text = new
        fresh = SourceText(text)
        assert src.line_count == fresh.line_count
        for line in range(fresh.line_count):
            assert src.line_start(line) == fresh.line_start(line), (line, text)
            assert src.line_end(line) == fresh.line_end(line)
        for offset in range(len(text) + 1):
            assert src.position(offset) == fresh.position(offset), (offset, text)


def test_another_encoding_shares_the_line_index_and_measures_its_own_way() -> None:
    text = "a\n# 😀 é\nvllm serve m --port 1\n"
    src = SourceText(text)
    for encoding in ("utf-8", "utf-32"):
        other = src.with_encoding(encoding)
        fresh = SourceText(text, encoding)
        assert [other.position(i) for i in range(len(text) + 1)] == [fresh.position(i) for i in range(len(text) + 1)]
    assert src.with_encoding("utf-16") is src


@pytest.mark.parametrize("seed", range(6))
def test_a_word_looked_for_through_edits_is_found_as_in_a_fresh_text(seed: int) -> None:
    # ``mentions`` remembers a word it did not find and, after an edit,
    # looks only around what the edit wrote: typing, deleting and joining
    # pieces must find the word exactly when the whole text holds it.
    from servelint.text import edit_range

    rng = random.Random(seed)
    pieces = [".", "Val", "ues", ".Values", "x", "\n", "s", "V"]
    text = "".join(rng.choice(pieces[:3] + pieces[4:]) for _ in range(rng.randrange(0, 60)))
    src = SourceText(text)
    found = 0
    for _ in range(300):
        assert src.mentions(".Values") == (".Values" in text), text
        assert src.mentions("Values") == ("Values" in text), text
        found += ".Values" in text
        a = rng.randrange(0, len(text) + 1)
        b = min(len(text), a + rng.choice([0, 0, 1, 2, 7]))
        new = text[:a] + "".join(rng.choice(pieces) for _ in range(rng.choice([0, 1, 1, 2]))) + text[b:]
        src = SourceText(new, edited=(src, *edit_range(text, new)))
        text = new
    assert 0 < found < 300  # the word came and went


def test_a_text_made_by_an_edit_names_the_edit_only_against_the_text_it_came_from() -> None:
    from servelint.text import edit_range

    old = SourceText("vllm serve m --port 8000\n")
    new_text = "vllm serve m --port 80001\n"
    new = SourceText(new_text, edited=(old, *edit_range(old.text, new_text)))
    assert new.edit_since(old) == (24, 24, 25)  # the "1" typed after "8000"
    assert new.edit_since(SourceText(old.text)) is None  # the same words, another text
    assert SourceText(new_text).edit_since(old) is None


@pytest.mark.parametrize("seed", range(4))
def test_a_line_index_flattened_after_typing_within_lines_answers_as_a_fresh_one(seed: int) -> None:
    # Keystrokes that write or delete no line break only move line starts:
    # past the chain's depth the index is added up from the chain, not read
    # from the text again.  Now and then a line break is typed or deleted
    # (the chain then cannot be flattened, and the text is read).
    from servelint.text import edit_range

    rng = random.Random(seed)
    text = "".join(rng.choice(["vllm serve m --port 1", "", "  --tp 2", "x"]) + "\n" for _ in range(60))
    src = SourceText(text)
    src.line_count  # noqa: B018
    flattened = 0
    for step in range(400):
        a = rng.randrange(0, len(text) + 1)
        b = a
        while b < len(text) and text[b] != "\n" and b - a < rng.choice([0, 1, 3]):
            b += 1
        typed = "".join(rng.choice("ab -=") for _ in range(rng.choice([0, 1, 1, 2])))
        if step % 37 == 36:
            typed, b = "\n", a
        elif step % 53 == 52:
            at = text.find("\n", a)
            if at >= 0:
                a, b, typed = at, at + 1, ""
        new = text[:a] + typed + text[b:]
        src = SourceText(new, edited=(src, *edit_range(text, new)))
        text = new
        flattened += src._index is not None and src._index.parent is None
        fresh = SourceText(text)
        assert src.line_count == fresh.line_count
        for line in range(fresh.line_count):
            assert src.line_start(line) == fresh.line_start(line), (step, line)
        for offset in range(0, len(text) + 1, 7):
            assert src.position(offset) == fresh.position(offset), (step, offset)
    assert flattened > 20  # the chain was flattened, not only read again
