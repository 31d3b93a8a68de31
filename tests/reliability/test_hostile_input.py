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
import tempfile
import time

import pytest

HANG_LIMIT_S = 60


# Peak memory of one check, whatever the input: the interpreter, the parsers
# and the knowledge of one release take ~100 MB; hostile input must not add
# more than a fraction of that.
MEMORY_LIMIT_MB = 400


# The CLI, started so that it reports its own peak memory: ru_maxrss of a
# child also counts the parent's memory at fork time, VmHWM does not.
_SHIM = """
import atexit, os, sys
def _peak():
    with open("/proc/self/status") as fh, open(os.environ["SERVELINT_PEAK_FILE"], "w") as out:
        out.write(next(line.split()[1] for line in fh if line.startswith("VmHWM:")))
if os.path.exists("/proc/self/status"):
    atexit.register(_peak)
from servelint.cli import main
sys.exit(main(sys.argv[1:]))
"""


def check(path, *extra) -> dict:
    argv = [sys.executable, "-c", _SHIM, "check", "--no-config", "--format", "json", "--vllm-version", "0.33.0",
            *extra, str(path)]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r") as peak:
        proc = subprocess.Popen(argv, stdout=out, stderr=err, env={**os.environ, "SERVELINT_PEAK_FILE": peak.name})
        started = time.monotonic()
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - started > HANG_LIMIT_S:
                proc.kill()
                proc.wait()
                raise AssertionError(f"servelint check {path} hung (over {HANG_LIMIT_S}s)")
            time.sleep(0.02)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
        peak_mb = int(peak.read() or 0) / 1024
    MEASURED[os.environ.get("PYTEST_CURRENT_TEST", str(path)).split(" ")[0]] = (
        round(usage.ru_utime + usage.ru_stime, 2), round(peak_mb))
    assert proc.returncode in (0, 1), stderr[-2000:]
    assert "Traceback" not in stderr
    assert peak_mb < MEMORY_LIMIT_MB, f"peak memory {peak_mb:.0f} MB"
    return json.loads(stdout)


# test id -> (CPU seconds, peak MB) of its last check; printed with -s for the README figures.
MEASURED: dict[str, tuple[float, int]] = {}


@pytest.fixture(autouse=True, scope="module")
def _report_measurements():
    yield
    if os.environ.get("SERVELINT_RELIABILITY_FIGURES"):
        for test, (cpu, mb) in sorted(MEASURED.items()):
            print(f"{test}: {cpu} s CPU, {mb} MB peak")


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


def _launch_lines(n: int, bad: set[int]) -> str:
    """``n`` different launches, one per line from line 2; those in ``bad``
    with a misspelt flag."""
    return "#!/bin/sh\n" + "".join(
        f"vllm serve Qwen/Qwen3-8B --port {8000 + i}{' --max-modl-len 1' if i in bad else ''} &\n"
        for i in range(n))


def test_ten_thousand_launches(tmp_path):
    # 10,000 different launches: the first 1,000 (the max-launches default)
    # are checked, and one information says where checking stopped.
    p = tmp_path / "many.sh"
    p.write_text(_launch_lines(10_000, {10, 999, 1000, 5000}))
    out = check(p)
    found = [(d["code"], d["range"]["start"]["line"], d["severity"]) for d in out["diagnostics"]]
    assert found == [("SL101", 11, "error"), ("SL101", 1000, "error"), ("SL012", 1001, "information")]
    [limit] = [d for d in out["diagnostics"] if d["code"] == "SL012"]
    assert limit["range"]["end"] == {"line": 1001, "character": 10}  # `vllm serve`
    assert "at most 1,000 launches" in limit["message"]


def test_launch_limit_is_a_setting(tmp_path):
    p = tmp_path / "many.sh"
    p.write_text(_launch_lines(1_500, {1200, 1499}))
    every = check(p, "--max-launches", "0")
    assert [(d["code"], d["range"]["start"]["line"]) for d in every["diagnostics"]] == [("SL101", 1201), ("SL101", 1500)]
    fewer = check(p, "--max-launches", "1300")
    assert [(d["code"], d["range"]["start"]["line"]) for d in fewer["diagnostics"]] == [("SL101", 1201), ("SL012", 1301)]


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


def test_a_50mb_file_is_skipped_without_being_read(tmp_path):
    p = tmp_path / "huge.sh"
    with open(p, "wb") as fh:
        fh.write(b"#!/bin/sh\n" + b"vllm serve Qwen/Qwen3-8B --max-modl-len 1\n" * (50_000_000 // 42))
    out = check(p)
    size = f"{p.stat().st_size:,}"
    assert [(d["code"], d["severity"], d["message"]) for d in out["diagnostics"]] == [
        ("SL009", "information", f"servelint skips files over 5,000,000 characters ({size} bytes here)")]
    # Not read: the whole run's peak stays below the file's 50 MB (~16 MB here).
    _, peak_mb = MEASURED[os.environ["PYTEST_CURRENT_TEST"].split(" ")[0]]
    assert peak_mb < 40, peak_mb


def test_an_endless_file_named_on_the_command_line(tmp_path):
    out = check("/dev/zero")
    assert codes(out) == ["SL009"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifos_never_block(tmp_path):
    # A named pipe has no writer: opening it to read would wait forever.
    os.mkfifo(tmp_path / "pipe.sh")
    os.mkfifo(tmp_path / "cfg.yaml")
    (tmp_path / "run.sh").write_text("#!/bin/sh\nvllm serve Qwen/Qwen3-8B --config cfg.yaml\n")
    out = check(tmp_path)
    assert [(os.path.basename(d["path"]), d["code"]) for d in out["diagnostics"]] == [("run.sh", "SL007")]
