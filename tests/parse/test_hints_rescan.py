"""After an edit, a script's release hints and directives are found by
scanning only the lines the edit touched: the result is a full scan's."""

from __future__ import annotations

import random

from servelint.parse import parse_document
from servelint.parse import hints

# Every kind of hint and directive, and the line breaks and comment marks
# that decide a pin's kind ("comment" looks back to the last "\n" for "#").
PIECES = [
    "vllm/vllm-openai:v0.28.0", "pip install vllm==0.27.1", "# servelint: vllm=0.33.0",
    "# tested with vllm==0.28.0", "vllm[audio]==0.28.0", "servelint: disable=SL101", "# servelint: ",
    "\n", "\r\n", "\r", " ", "\t", "x", "_", "#", "vllm", "==", "0.3", "servelint:",
]


def test_rescan_equals_a_full_scan_after_random_edits():
    rng = random.Random(20261130)
    for _ in range(1500):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 30)))
        found, said = hints.scan(text)
        for _ in range(8):
            at = rng.randint(0, len(text))
            cut = rng.randint(0, min(12, len(text) - at))
            typed = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 2)))[: rng.randint(0, 30)]
            new = text[:at] + typed + text[at + cut:]
            found, said = hints.rescan(found, said, text, new)
            assert (found, said) == hints.scan(new), (text, new)
            text = new


SCRIPT = """#!/bin/bash
# servelint: vllm=0.28.0
pip install vllm==0.27.1   # tested with vllm==0.28.0
docker run vllm/vllm-openai:v0.33.0 Qwen/Qwen3-8B
vllm serve Qwen/Qwen3-8B --port 8000  # servelint: disable=SL101
"""


def test_a_script_edited_below_and_above_its_hints_keeps_them_where_they_are():
    doc = parse_document("run.sh", SCRIPT)
    for at, typed in [(len(SCRIPT), "echo done\n"), (0, "\n\n"), (SCRIPT.index("0.27.1"), "1"),
                      (SCRIPT.index("# tested"), "x")]:
        text = SCRIPT[:at] + typed + SCRIPT[at:]
        edited = parse_document("run.sh", text, previous=doc)
        fresh = parse_document("run.sh", text)
        assert edited.release_hints == fresh.release_hints
        assert edited.directives == fresh.directives
        assert [h.kind for h in edited.release_hints] == [h.kind for h in fresh.release_hints]
    # The pin typed into a comment is a comment's pin, not an install's.
    text = SCRIPT.replace("pip install vllm==0.27.1", "# pip install vllm==0.27.1")
    edited = parse_document("run.sh", text, previous=doc)
    assert [(h.kind, h.version) for h in edited.release_hints][:3] == [
        ("directive", "0.28.0"), ("comment", "0.27.1"), ("comment", "0.28.0")]
