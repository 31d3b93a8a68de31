"""Launch files pinned to old releases, checked by the CLI as a user runs it:
the pinned release's flags, entry point and history decide what is said.

Each expectation rests on the release's own parser or Dockerfile (the facts
in servelint's tables were observed by running them; the conformance suite
``tests/conformance/releases`` holds servelint to each minor release's own
verdicts).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from servelint import knowledge
from servelint.knowledge import history

BIN = os.path.join(os.path.dirname(sys.executable), "servelint")
NEWEST = knowledge.NEWEST


def check(tmp_path, name: str, text: str, *extra: str) -> list[dict]:
    path = tmp_path / name
    path.write_text(text)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    exe = [BIN] if os.path.exists(BIN) else [sys.executable, "-m", "servelint"]
    proc = subprocess.run(exe + ["check", "--format", "json", "--no-config", "--fail-on", "never", *extra, str(path)],
                          cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["diagnostics"]


def codes(diags: list[dict]) -> list[str]:
    return [d["code"] for d in diags]


def test_a_flag_the_pinned_release_accepts_is_not_unknown(tmp_path):
    # vLLM 0.8.5 has --num-scheduler-steps and --swap-space (vllm/engine/arg_utils.py at 0.8.5)
    diags = check(tmp_path, "run.sh", "pip install vllm==0.8.5\n"
                  "vllm serve facebook/opt-125m --num-scheduler-steps 8 --swap-space 4\n")
    assert "SL101" not in codes(diags), diags


def test_a_flag_the_pinned_release_lacks_says_when_it_was_added(tmp_path):
    added = history.added_in("--use-replayssm")
    diags = check(tmp_path, "run.sh", "pip install vllm==0.8.5\nvllm serve facebook/opt-125m --use-replayssm\n")
    [d] = [d for d in diags if d["code"] == "SL101"]
    assert d["message"] == f"unknown flag --use-replayssm for vLLM 0.8.5; it was added in vLLM {added}"
    assert d["vllm_version"] == "0.8.5"


def test_a_removed_flag_says_so_without_a_far_fetched_suggestion(tmp_path):
    diags = check(tmp_path, "run.sh", "vllm serve facebook/opt-125m --num-scheduler-steps 8\n",
                  "--vllm-version", NEWEST)
    [d] = [d for d in diags if d["code"] == "SL101"]
    change = history.change("--num-scheduler-steps")
    assert f"in vLLM {change['release']}" in d["message"]
    assert "did you mean" not in d["message"]
    assert "--max-num-scheduled-tokens" not in d["message"]


def test_a_moved_or_removed_guided_decoding_backend(tmp_path):
    diags = check(tmp_path, "run.sh", "vllm serve facebook/opt-125m --guided-decoding-backend xgrammar\n",
                  "--vllm-version", NEWEST)
    [d] = [d for d in diags if d["code"] == "SL101"]
    assert "--kda-decode-backend" not in d["message"]
    # vLLM 0.12.0 dropped it; StructuredOutputsConfig.backend carries its help text
    change = history.change("--guided-decoding-backend")
    assert (change["kind"], change["into"], change["key"]) == ("moved", "--structured-outputs-config", "backend")
    assert d["message"] == (
        f"unknown flag --guided-decoding-backend for vLLM {NEWEST}; it moved into --structured-outputs-config "
        f"(key backend) in vLLM {change['release']}; did you mean --structured-outputs-config.backend?")
    assert d["fixes"][0]["title"] == "Replace with --structured-outputs-config.backend"


def test_a_real_typo_still_gets_did_you_mean(tmp_path):
    diags = check(tmp_path, "run.sh", "pip install vllm==0.6.3.post1\nvllm serve facebook/opt-125m --max-model-length 4096\n")
    [d] = [d for d in diags if d["code"] == "SL101"]
    assert d["message"].endswith("did you mean --max-model-len?")
    assert d["fixes"][0]["title"] == "Replace with --max-model-len"


def test_old_upstream_images_run_the_api_server_where_model_is_a_flag(tmp_path):
    # docker/Dockerfile at v0.8.5: ENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"]
    old = check(tmp_path, "old.sh", "docker run --gpus all vllm/vllm-openai:v0.8.5 --model facebook/opt-125m\n")
    assert "SL105" not in codes(old) and "SL101" not in codes(old), old
    new = check(tmp_path, "new.sh", "docker run --gpus all vllm/vllm-openai:latest --model facebook/opt-125m\n",
                "--vllm-version", NEWEST)
    [d] = [d for d in new if d["code"] == "SL105"]
    assert d["severity"] == "warning" and "positional" in d["message"]


def test_vllm_serve_model_flag_is_an_error_where_the_release_rejects_it(tmp_path):
    # vLLM 0.8.5's FlexibleArgumentParser raises "With `vllm serve`, you should provide the model as a
    # positional argument or in a config file instead of via the `--model` option."
    diags = check(tmp_path, "run.sh", "pip install vllm==0.8.5\nvllm serve --model facebook/opt-125m\n")
    [d] = [d for d in diags if d["code"] == "SL105"]
    assert d["severity"] == "error" and "rejects --model" in d["message"]


def test_api_server_entry_point_reads_its_own_flag_set(tmp_path):
    diags = check(tmp_path, "run.sh", "pip install vllm==0.6.3.post1\n"
                  "python -m vllm.entrypoints.openai.api_server --model facebook/opt-125m --swap-space 4\n")
    assert not [d for d in diags if d["severity"] in ("error", "warning")], diags


@pytest.mark.parametrize("pin", ["quay.io/rh-aiservices-bu/vllm-openai-ubi9:0.4.2", "vllm/vllm-openai:v0.4.2"])
def test_a_pin_older_than_the_tables_gets_one_information_diagnostic(tmp_path, pin):
    manifest = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: llm\nspec:\n  template:\n    spec:\n"
        "      containers:\n        - name: vllm\n"
        f"          image: {pin}\n"
        "          args: [\"--model\", \"facebook/opt-125m\", \"--port\", \"8000\"]\n"
    )
    diags = check(tmp_path, "deploy.yaml", manifest)
    info = [d for d in diags if d["code"] == "SL013"]
    assert len(info) == 1, diags
    assert info[0]["severity"] == "information"
    assert "0.4.2" in info[0]["message"] and knowledge.RELEASES[0] in info[0]["message"]
    assert info[0]["range"]["start"]["line"] == 9
