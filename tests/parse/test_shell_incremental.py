"""Re-reading only the edited statements gives exactly what a full parse gives."""

from __future__ import annotations

import random

from servelint.parse import parse_document
from servelint.parse.dump import dump_document
from servelint.parse.shell import ShellIncremental

SCRIPT = """#!/bin/bash
set -e
MODEL=${MODEL:-Qwen/Qwen3-8B}
PORT=8000
# launches
vllm serve "$MODEL" --port "$PORT" \\
  --max-model-len 32768 &
echo started
start() {
  vllm serve "$1" --port 9000 --tensor-parallel-size 2
}
CUDA_VISIBLE_DEVICES=1 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8001 --dtype bfloat16 &
docker run --gpus all vllm/vllm-openai:v0.28.0 Qwen/Qwen3-8B --max-model-len 4096
start "$MODEL"
cat <<EOF > cfg.yaml
port: 1
EOF
vllm serve "$MODEL" --config cfg.yaml
wait
"""

EDITS = ["-", " ", "x", "1", "\n", "--port 9 ", "'", '"', "$", "\\\n", "=", "PORT=1\n", "#"]


def _same(a, b, text):
    assert dump_document(a, text) == dump_document(b, text)


def test_random_edits_match_a_full_parse():
    rng = random.Random(11)
    text = SCRIPT
    doc = parse_document("run.sh", text)
    incremental = 0
    for n in range(600):
        if n % 25 == 0:  # random edits soon break the script for good; start over
            text = SCRIPT
        i = rng.randrange(len(text) + 1)
        if rng.random() < 0.4 and len(text) > 1:
            j = min(len(text), i + rng.randrange(1, 5))
            text = text[:i] + text[j:]
        else:
            text = text[:i] + rng.choice(EDITS) + text[i:]
        prev = doc
        doc = parse_document("run.sh", text, previous=prev)
        full = parse_document("run.sh", text)
        _same(doc, full, text)
        if doc.cache is not None and doc.cache.from_edit:
            incremental += 1
    assert incremental > 60  # many edits took the incremental path


def test_typing_a_flag_into_a_launch_reuses_the_rest():
    text = SCRIPT
    doc = parse_document("run.sh", text)
    assert isinstance(doc.cache, ShellIncremental)
    at = text.index("--dtype bfloat16") + len("--dtype bfloat16")
    for k, ch in enumerate(" --enforce-eager"):
        text = text[: at + k] + ch + text[at + k :]
        new = parse_document("run.sh", text, previous=doc)
        _same(new, parse_document("run.sh", text), text)
        # The first launch is the same object: it was not read again.
        assert new.launches[0] is doc.launches[0]
        doc = new


def test_launches_below_an_edit_are_moved_without_reading_their_words():
    """Typing above many launches moves them; their words are shifted only
    when read, and a launch left unread for many keystrokes does not keep
    every earlier version of itself alive."""
    from servelint.model import MovedLaunch
    from servelint.parse import parse_document
    from servelint.parse.dump import dump_document

    text = "#!/bin/sh\n# top\n" + "".join(f"vllm serve m{i} --port {8000 + i}\n" for i in range(20))
    doc = parse_document("run.sh", text)
    for k in range(40):
        text = text.replace("# top", "# top" + "x", 1)
        doc = parse_document("run.sh", text, previous=doc)
        moved = [l for l in doc.launches if isinstance(l, MovedLaunch)]
        assert len(moved) == 20
        # Unread, each holds the launch it was last read as and the moves
        # since, never the versions in between.
        assert all(not l.unread or not isinstance(l.pending[0], MovedLaunch) or not l.pending[0].unread
                   for l in moved)
        assert all(l.moved_from is None or l.moved_from.moved_from is None for l in moved)
    # Read now, they are where a full parse puts them.
    assert dump_document(doc, text) == dump_document(parse_document("run.sh", text), text)
    assert doc.launches[7].args[0].span.start == text.index("m7 ")


CALLED_BELOW = """#!/bin/bash
start() {
  vllm serve Qwen/Qwen3-8B --port "$PORT" --max-model-len "$LEN"
}
echo preparing
export LEN=4096
export PORT=8000
start
"""


def _variables(doc):
    return [sorted((name, v.span) for name, v in launch.env.items()) for launch in doc.launches]


def test_a_launch_in_a_function_keeps_the_places_of_the_variables_of_its_call():
    # The launch stands in the function's body, above the edit; it reads
    # the variables exported below the edit, where ``start`` is called.
    doc = parse_document("run.sh", CALLED_BELOW)
    at = CALLED_BELOW.index("echo preparing")
    for typed in ["x", "echo more\n", ""]:
        text = CALLED_BELOW[:at] + typed + CALLED_BELOW[at + (0 if typed else 5):]
        edited = parse_document("run.sh", text, previous=doc)
        assert edited.cache is not None and edited.cache.from_edit  # re-read in part
        fresh = parse_document("run.sh", text)
        assert _variables(edited) == _variables(fresh)
        port = next(v for v in edited.launches[0].env.values() if v.name == "PORT")
        assert text[port.span.start:port.span.end].startswith("PORT=8000")
        doc = parse_document("run.sh", text, previous=edited)  # and again from there
        assert _variables(doc) == _variables(fresh)
