"""`servelint check --show-launches`: what servelint read in each file, so a
user can find out why a launch was (not) seen or read as it was."""

from __future__ import annotations

import json

SCRIPT = """#!/bin/bash
# vllm==0.28.0
docker run --gpus all --name vllm "$IMAGE" --model Qwen/Qwen3-8B
vllm serve Qwen/Qwen3-8B --config serve.yaml --max-model-len 4096
"""
CONFIG = "enforce-eager: true\n"


def test_json_report(cli, tmp_path):
    (tmp_path / "run.sh").write_text(SCRIPT)
    (tmp_path / "serve.yaml").write_text(CONFIG)
    proc = cli("check", "--show-launches", "--format", "json", "--no-config", "run.sh", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    [entry] = json.loads(proc.stdout)["files"]
    assert entry["path"] == "run.sh"
    image, serve = entry["launches"]
    assert image["entry"] == "image entrypoint"
    assert image["entry_unknown"] == "the image is `$IMAGE` ($IMAGE is not set in this file: an input, given by whoever runs it), so what it runs is not known"
    assert image["release"]["version"] == "0.28.0"
    assert serve["entry"] == "vllm serve"
    assert serve["model"]["name"] == "Qwen/Qwen3-8B"
    by_flag = {f["written"]: f for f in serve["flags"]}
    assert by_flag["--max-model-len"]["from"] == "file"
    assert by_flag["--max-model-len"]["range"]["start"] == {"line": 3, "character": 45}
    assert by_flag["enforce-eager"]["from"] == "config-file"


def test_text_report(cli, tmp_path):
    (tmp_path / "run.sh").write_text(SCRIPT)
    (tmp_path / "serve.yaml").write_text(CONFIG)
    proc = cli("check", "--show-launches", "--no-config", "run.sh", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "run.sh: 2 launches"
    assert "     entry point unknown: the image is `$IMAGE` ($IMAGE is not set in this file: an input, given by whoever runs it), so what it runs is not known" in lines
    assert "     --max-model-len 4096  (written at 4:46)" in lines
    assert any(line.startswith("     enforce-eager  (from the config file") for line in lines)
