"""Removing words in the user's layout: what is left is what a person would write."""

from __future__ import annotations

import pytest

from servelint.edits import remove_spans
from servelint.edits import apply
from servelint.text import Span


def _remove(text: str, *words: str) -> str:
    spans = []
    for w in words:
        at = text.index(w)
        spans.append(Span(at, at + len(w)))
    return apply(text, remove_spans(text, spans, "f"))


@pytest.mark.parametrize("text,words,expected", [
    # one line
    ("vllm serve m --a --b 1 --c\n", ["--b 1"], "vllm serve m --a --c\n"),
    ("vllm serve m --a\n", ["--a"], "vllm serve m\n"),
    # continued lines: first, middle, last; first word of a line with more after it
    ("vllm serve m --a \\\n  --b \\\n  --c\n", ["--a"], "vllm serve m \\\n  --b \\\n  --c\n"),
    ("vllm serve m \\\n  --a \\\n  --b \\\n  --c\n", ["--b"], "vllm serve m \\\n  --a \\\n  --c\n"),
    ("vllm serve m \\\n  --a \\\n  --c\necho\n", ["--c"], "vllm serve m \\\n  --a\necho\n"),
    ("vllm serve m \\\n  --a --b \\\n  --c\n", ["--a"], "vllm serve m \\\n  --b \\\n  --c\n"),
    # the last two lines at once: the continuation before them goes too
    ("vllm serve m \\\n  --a \\\n  --b \\\n  --c\n", ["--b", "--c"], "vllm serve m \\\n  --a\n"),
    # flag and value on separate lines
    ("vllm serve m \\\n  --s \\\n    '{}' \\\n  --p 1\n", ["--s \\\n    '{}'"], "vllm serve m \\\n  --p 1\n"),
    # CRLF line ends stay CRLF
    ("vllm serve m \\\r\n  --a \\\r\n  --b\r\n", ["--b"], "vllm serve m \\\r\n  --a\r\n"),
    # YAML block items (a trailing comment goes with its item)
    ("args:\n- m\n- --a  # why\n- --b\n", ["--a"], "args:\n- m\n- --b\n"),
    # flow lists and exec arrays: the comma goes, across a continuation too
    ('["m", "--a", "--b"]', ['"--a"'], '["m", "--b"]'),
    ('["m", "--a"]', ['"--a"'], '["m"]'),
    ('["--a", "m"]', ['"--a"'], '["m"]'),
    ('CMD ["m", \\\n     "--a"]\n', ['"--a"'], 'CMD ["m"]\n'),
    ('args: ["m",\n       "--a",\n       "--b"]\n', ['"--a"'], 'args: ["m",\n       "--b"]\n'),
    # a --config entry (with the comment on its line)
    ("model: m\nuse-replayssm: true  # try it\nport: 1\n", ["use-replayssm: true"], "model: m\nport: 1\n"),
])
def test_remove(text, words, expected):
    assert _remove(text, *words) == expected
