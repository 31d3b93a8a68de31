"""Hostile and broken input: always an answer, never a crash or a hang.

Each case runs the real CLI in a subprocess with a generous time limit that
only catches hangs (speed is measured in bench/, not asserted here); the
answer must be a normal report (exit 0 or 1) with the expected diagnostic.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

BIN = os.path.join(os.path.dirname(sys.executable), "servelint")
HANG_LIMIT_S = 60


def check(path, *extra) -> dict:
    exe = [BIN] if os.path.exists(BIN) else [sys.executable, "-m", "servelint"]
    proc = subprocess.run(
        exe + ["check", "--no-config", "--format", "json", "--vllm-version", "0.33.0", *extra, str(path)],
        capture_output=True, timeout=HANG_LIMIT_S, text=True,
    )
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    return json.loads(proc.stdout)


def codes(out: dict) -> list[str]:
    return [d["code"] for d in out["diagnostics"]]


def test_yaml_alias_bomb(tmp_path):
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev = chr(ord("a") + i - 1)
        cur = chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]")
    lines.append("model: Qwen/Qwen3-8B")
    lines.append("tensor-parallel-size: *j")
    p = tmp_path / "bomb.yaml"
    p.write_text("\n".join(lines) + "\n")
    check(p)


def test_file_over_the_size_limit_is_skipped_with_information(tmp_path):
    p = tmp_path / "huge.sh"
    line = "vllm serve Qwen/Qwen3-8B --port 8000 --max-modl-len 1\n"
    with open(p, "w") as fh:
        fh.write("#!/bin/sh\n")
        fh.write(line * (5_100_000 // len(line) + 1))
    out = check(p)
    assert codes(out) == ["SL009"]
    assert out["diagnostics"][0]["severity"] == "information"


def test_binary_and_invalid_utf8(tmp_path):
    p = tmp_path / "blob.sh"
    p.write_bytes(b"#!/bin/sh\n\x00\x01\xff\xfe vllm serve \xc3\x28 --port 1\n" + bytes(range(256)) * 50)
    check(p)
    q = tmp_path / "bad.yaml"
    q.write_bytes(b"model: \xff\xfe\ntensor-parallel-size: 2\nmax-model-len: 4096\n")
    check(q)


def test_deeply_nested_yaml_and_json(tmp_path):
    p = tmp_path / "deep.yaml"
    p.write_text("model: Qwen/Qwen3-8B\ntensor-parallel-size: 2\ncompilation-config: " + "[" * 5000 + "]" * 5000 + "\n")
    check(p)
    q = tmp_path / "deep.sh"
    q.write_text("#!/bin/sh\nvllm serve Qwen/Qwen3-8B --speculative-config '" + '{"a":' * 3000 + "1" + "}" * 3000 + "'\n")
    check(q)


def test_ten_thousand_launches(tmp_path):
    p = tmp_path / "many.sh"
    p.write_text("#!/bin/sh\n" + "".join(f"vllm serve Qwen/Qwen3-8B --port {8000 + i % 1000} &\n" for i in range(10_000)))
    out = check(p)
    assert out["diagnostics"] == []


def test_a_100kb_line(tmp_path):
    p = tmp_path / "long.sh"
    p.write_text("#!/bin/sh\nvllm serve Qwen/Qwen3-8B " + "--port 8000 " * 9000 + "--max-modl-len 1\n")
    out = check(p)
    assert "SL101" in codes(out)


@pytest.mark.parametrize(
    "text",
    [
        "vllm serve Qwen/Qwen3-8B --served-model-name 'qwen\n",
        'vllm serve Qwen/Qwen3-8B --chat-template "$(cat <<EOF\n{{ x }}\n',
        "cat <<EOF | bash\nvllm serve Qwen/Qwen3-8B --port 1\n",
        "vllm serve Qwen/Qwen3-8B \\",
        "vllm serve Qwen/Qwen3-8B $((1 + \n",
        "vllm serve ${MODEL:-Qwen/Qwen3-8B --port 1\n",
    ],
)
def test_unterminated_constructs(tmp_path, text):
    p = tmp_path / "half.sh"
    p.write_text("#!/bin/sh\n" + text)
    check(p)


def test_crlf_and_mixed_line_endings_keep_ranges_right(tmp_path):
    p = tmp_path / "crlf.sh"
    # A lone CR is no line break for the shell (it is part of the word), but
    # it is one for LSP positions: the range after it starts a line lower.
    p.write_bytes(b"#!/bin/sh\r\nvllm serve Qwen/Qwen3-8B \\\r\n  --max-modl-len 1\r\necho a\rb; vllm serve Qwen/Qwen3-8B --bogus\n")
    out = check(p)
    ranges = {d["flag"]: d["range"] for d in out["diagnostics"]}
    assert ranges["--max-modl-len"]["start"] == {"line": 2, "character": 2}
    assert ranges["--bogus"]["start"] == {"line": 4, "character": 28}


def test_non_ascii_ranges_are_utf16(tmp_path):
    p = tmp_path / "utf.sh"
    # "😀" is two UTF-16 code units; "é" one.
    p.write_text("#!/bin/sh\n# déjà vu 😀\nMODEL=Qwen/Qwen3-8B; echo \"😀é\"; vllm serve $MODEL --max-modl-len 1\n")
    out = check(p)
    [d] = out["diagnostics"]
    line = "MODEL=Qwen/Qwen3-8B; echo \"😀é\"; vllm serve $MODEL --max-modl-len 1"
    expected = len(line[: line.index("--max-modl-len")].encode("utf-16-le")) // 2
    assert d["range"]["start"] == {"line": 2, "character": expected}
    assert d["range"]["end"]["character"] == expected + len("--max-modl-len")
