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
