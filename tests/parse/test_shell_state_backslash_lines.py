"""A line starting with a backslash is a command of its own, as in a shell.

tree-sitter-bash reads such a line as more words of the command on the line
above (the line break inside the first of them); the parser splits the
command where the line breaks and reads each line alone."""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile

import pytest

from servelint.parse import parse_document
from servelint.parse.dump import dump_document

SCRIPTS = [
    'vllm serve m --port 1\n\\"x\n',
    "vllm serve a \\\n  --port 1\n\\\nvllm serve y --port 9\n",
    "vllm serve a # c\n\\x y\nvllm serve b\n",
    'A=1\n\\x y\nvllm serve "$A"\n',
    "if true; then\n  vllm serve c --dtype half\n\\x\nfi\n",
    "vllm serve d\n\n\\x\n\\y z\n\\\nvllm serve e --port 2 &\nwait\n",
    "vllm serve f \\\n\\--port 3\n",  # a continued line may start with one: same command
]


def _argvs(text: str) -> list[list[str]]:
    return [[w.text for w in launch.args] for launch in parse_document("run.sh", text).launches]


def _bash_argvs(text: str) -> list[list[str]]:
    """What bash passes to ``vllm serve``: a function stands in for vllm, no
    other program can run (PATH leads nowhere), in an empty directory."""
    prelude = 'vllm() { shift; printf "LAUNCH\\n"; printf "%s\\n" "$@"; }\n'
    with tempfile.TemporaryDirectory() as here:  # where a stray redirection would write
        done = subprocess.run([shutil.which("bash"), "--norc", "--noprofile", "-s"], input=prelude + text,
                              capture_output=True, text=True, timeout=30, env={"PATH": "/nonexistent"}, cwd=here)
    out: list[list[str]] = []
    for line in done.stdout.splitlines():
        if line == "LAUNCH":
            out.append([])
        else:
            out[-1].append(line)
    return out


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash to compare with")
@pytest.mark.parametrize("text", SCRIPTS)
def test_launches_are_the_ones_bash_runs(text):
    assert _argvs(text) == _bash_argvs(text)


def test_the_launch_above_keeps_only_its_own_line():
    (launch,) = parse_document("run.sh", 'vllm serve m --port 1\n\\"x\n').launches
    assert [w.text for w in launch.args] == ["m", "--port", "1"]
    assert launch.span.end == len("vllm serve m --port 1")


def test_an_assignment_above_a_joined_line_is_still_set():
    (launch,) = parse_document("run.sh", 'A=1\n\\x y\nvllm serve "$A"\n').launches
    assert launch.args[0].text == "1" and launch.problems == []


JOINED = [
    "export P=1\n\\y z\nvllm serve j\n",  # `export` would export y and z
    "unset Q\n\\x Q\nvllm serve k\n",
    "echo a > /dev/null\n\\x\nvllm serve l\n",
    "f() {\n  vllm serve i\n}\nf\n",
]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash to compare with")
@pytest.mark.parametrize("text", JOINED)
def test_statements_other_than_commands_end_at_their_line_too(text):
    assert _argvs(text) == _bash_argvs(text)


def test_typing_a_backslash_at_a_line_start_reads_as_a_full_parse():
    base = "".join(SCRIPTS).replace("wait\n", "") + "".join(JOINED) + "vllm serve g --port 4\nexport P=1\nvllm serve h\n"
    for seed in range(3):
        rng = random.Random(seed)
        text = base
        doc = parse_document("run.sh", text)
        for n in range(120):
            if n % 25 == 0:
                text = base
            if rng.random() < 0.7:  # mostly at a line's start
                at = rng.choice([0] + [k + 1 for k, ch in enumerate(text) if ch == "\n"])
            else:
                at = rng.randrange(len(text) + 1)
            if rng.random() < 0.3:
                text = text[:at] + text[at + rng.randrange(1, 3):]
            else:
                text = text[:at] + rng.choice(["\\", "\\\n", "\\\"", "x", " ", "\n", "# c", "'", "A=1 ", "\r\n"]) + text[at:]
            doc = parse_document("run.sh", text, previous=doc)
            assert dump_document(doc, text) == dump_document(parse_document("run.sh", text), text), (seed, n)


def test_many_joined_lines_read_in_linear_steps():
    """Every line of a long run of them is read alone, not by recursion."""
    text = "vllm serve m\n" + "\\x\n" * 3000 + "vllm serve n --port 1\n"
    assert _argvs(text) == [["m"], ["n", "--port", "1"]]


def test_the_shell_we_compare_with_is_bash():
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    assert _bash_argvs("vllm serve a 'b c'\n") == [["a", "b c"]]
