"""A script with more launches than the engine checks (``max_launches``).

The parser stops reading launches at the first command past the limit and
says where (``unread``).  For a script far over the limit it parses only the
head of the text; that must give exactly what reading the whole text gives,
or step aside.  Random scripts mixing what could make the head differ
(heredocs, functions, aliases, continuations, mentions of vllm that are no
launch, a broken tail) check it.
"""

from __future__ import annotations

import random

import pytest

from servelint.parse import parse_document
from servelint.parse.shell import document as shell
from servelint.text import Span

LIMIT = 6


_STATEMENTS = [
    "vllm serve m{i} --port {i}",
    "echo vllm number {i}",
    "# vllm serve commented-{i}",
    "export PORT={i}",
    'start() {{ vllm serve Qwen/Qwen3-8B --port "$PORT"; }}',
    "start",
    'if [ -n "$X" ]; then\n  vllm serve m{i} --port {i}\nfi',
    "docker run --gpus all vllm/vllm-openai --model m{i}",
    "vllm serve m{i} \\\n  --port {i} \\\n  --max-modl-len 1",
    "vllm serve m{i} --port {i} &&\n  echo started",
    "alias v=vllm",
    "v serve m{i} --bogus {i}",
    'MODEL=m{i} vllm serve "$MODEL" --port {i} &',
]
_HEREDOC = "cat <<EOF\nvllm serve inside-heredoc-{i}\nEOF"


def _statement(rnd: random.Random, i: int, heredocs: bool) -> str:
    choices = _STATEMENTS + [_HEREDOC] if heredocs else _STATEMENTS
    return rnd.choice(choices).format(i=i)


def _script(seed: int) -> str:
    rnd = random.Random(seed)
    heredocs = seed % 5 == 0  # any heredoc sends the parse to the whole text
    body = "\n".join(_statement(rnd, i, heredocs) for i in range(rnd.randrange(10, 80)))
    tail = rnd.choice(["", "vllm serve 'unterminated\n", "echo done\n"])
    return "#!/bin/bash\nshopt -s expand_aliases\n" + body + "\n" + tail


def _described(doc):
    return (
        [(l.span, l.entry_span, [(w.text, w.span, w.exact) for w in l.args],
          [(p.code, p.span, p.message) for p in l.problems]) for l in doc.launches],
        [(p.code, p.span, p.message) for p in doc.problems],
        doc.unread,
    )


@pytest.mark.parametrize("seed", range(300))
def test_head_only_parse_is_the_whole_parse(seed, monkeypatch):
    text = _script(seed)
    head = parse_document("s.sh", text, None, None, LIMIT)
    monkeypatch.setattr(shell, "_head_only", lambda *a: None)
    whole = parse_document("s.sh", text, None, None, LIMIT)
    assert _described(head) == _described(whole)


def test_head_only_is_taken_for_a_long_script():
    text = "#!/bin/sh\n" + "".join(f"vllm serve m --port {i}\n" for i in range(100))
    doc = shell._head_only("s.sh", text, LIMIT)
    assert doc is not None
    assert len(doc.launches) == LIMIT
    assert text[doc.unread.start : doc.unread.end] == "vllm serve"
    assert doc.unread.start == text.index(f"--port {LIMIT}\n") - len("vllm serve m ")


def test_without_a_limit_every_launch_is_read():
    text = "#!/bin/sh\n" + "".join(f"vllm serve m --port {i}\n" for i in range(100))
    doc = parse_document("s.sh", text)
    assert len(doc.launches) == 100 and doc.unread is None


def _edit(rnd: random.Random, text: str) -> str:
    """A random keystroke-sized edit: a character or a line typed or deleted."""
    at = rnd.randrange(len(text) + 1)
    kind = rnd.randrange(5)
    if kind == 0:
        return text[:at] + rnd.choice("x -\n\"'\\$") + text[at:]
    if kind == 1:
        return text[:at] + text[at + 1 :]
    line_start = text.rfind("\n", 0, at) + 1
    if kind == 2:  # a launch typed above the place where reading stopped
        return text[:line_start] + f"vllm serve typed --port {at}\n" + text[line_start:]
    if kind == 3:  # a line deleted
        end = text.find("\n", at)
        return text[:line_start] + (text[end + 1 :] if end >= 0 else "")
    return text[:at] + "--bogus " + text[at:]


@pytest.mark.parametrize("seed", range(60))
def test_edits_of_a_script_past_the_limit_equal_a_fresh_parse(seed):
    rnd = random.Random(seed)
    text = _script(seed + 1000)
    doc = parse_document("s.sh", text, None, None, LIMIT)
    for _ in range(25):
        text = _edit(rnd, text)
        doc = parse_document("s.sh", text, None, doc, LIMIT)
        assert _described(doc) == _described(parse_document("s.sh", text, None, None, LIMIT)), text


def test_an_edit_above_the_limit_is_read_in_part():
    text = "#!/bin/sh\n" + "".join(f"vllm serve m --port {i}\n" for i in range(100))
    doc = parse_document("s.sh", text, None, None, LIMIT)
    edited = text.replace("--port 1\n", "--port 1 --x\n")
    again = parse_document("s.sh", edited, None, doc, LIMIT)
    assert again.cache.from_edit  # re-read only the edited statement
    assert again.unread == Span(doc.unread.start + 4, doc.unread.end + 4)
    assert _described(again) == _described(parse_document("s.sh", edited, None, None, LIMIT))


MULTILINE = "#!/bin/sh\ncat <<EOF\nheredocs before the cut are fine\nEOF\n" + "".join(
    f"vllm serve m{i} \\\n  --port {i} \\\n  --max-model-len 4096\n" for i in range(100))


def test_an_edit_past_the_limit_reads_nothing_again():
    doc = parse_document("s.sh", MULTILINE, None, None, LIMIT)
    assert doc.cache.prefix_end > doc.unread.end  # the launch's continuation lines are in it
    at = MULTILINE.index("--port 50")
    edited = MULTILINE[:at] + "--bogus " + MULTILINE[at:]
    again = parse_document("s.sh", edited, None, doc, LIMIT)
    assert again.launches is doc.launches and again.unread == doc.unread
    assert _described(again) == _described(parse_document("s.sh", edited, None, None, LIMIT))


def test_a_syntax_error_past_the_limit_changes_nothing_before_it():
    # Bash runs the statements before the limit without reading what comes
    # after; tree-sitter's recovery from the unterminated quote would reshape
    # them (and see PORT exported), so they are read alone.
    text = ("#!/bin/bash\n  vllm serve m0 --port 0\ndocker run --gpus all vllm/vllm-openai --model m1\n"
            'start() { vllm serve Qwen/Qwen3-8B --port "$PORT"; }\nstart\nvllm serve m6 --port 6\n'
            'if [ -n "$X" ]; then\nexport PORT=26\nvllm serve \'unterminated\n')
    doc = parse_document("s.sh", text, None, None, 3)
    assert doc.unread.start == text.index("vllm serve m6")
    [in_function] = [l for l in doc.launches if "Qwen" in text[l.span.start : l.span.end]]
    # PORT is not set in what was read: an input, not a problem (issue 16, item 1).
    assert in_function.problems == [] and [i.name for i in in_function.inputs] == ["PORT"]
    before = text[: text.index("if [")]
    assert _described(doc) == _described(parse_document("s.sh", before, None, None, 3))
