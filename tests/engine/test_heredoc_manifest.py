"""A Kubernetes manifest or compose file that a script writes with a heredoc
(or feeds to ``kubectl apply -f -``) holds a launch: it is read at its place
in the script (issue 16, item 3).  What the shell fills in when the script
runs (``$SEQS``) is unknown, so no rule judges it."""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = """\
#!/bin/bash
cat <<EOF | kubectl apply -f -
apiVersion: v1
kind: Pod
metadata:
  name: vllm
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.33.0
      args: ["Qwen/Qwen3-8B", "--max-modl-len", "4096", "--max-num-seqs", "$SEQS", "--seed", "x"]
EOF
if true; then
\tcat > compose.yaml <<-'YAML'
\tservices:
\t  vllm:
\t    image: vllm/vllm-openai:v0.33.0
\t    command: ["Qwen/Qwen3-8B", "--dtype", "half-ish"]
\tYAML
fi
"""


def _check(tmp_path, text):
    path = tmp_path / "deploy.sh"
    path.write_text(text)
    out = subprocess.run([sys.executable, "-m", "servelint", "check", "--format", "json", "--fail-on", "never", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["diagnostics"]


def _at(text, d):
    lines = text.splitlines(keepends=True)
    r = d["range"]
    start = sum(len(l) for l in lines[: r["start"]["line"]]) + r["start"]["character"]
    end = sum(len(l) for l in lines[: r["end"]["line"]]) + r["end"]["character"]
    return text[start:end]


def test_launches_in_heredoc_manifests_are_checked_where_written(tmp_path):
    found = sorted((d["code"], _at(SCRIPT, d)) for d in _check(tmp_path, SCRIPT))
    assert found == [("SL101", "--max-modl-len"), ("SL103", '"half-ish"'), ("SL103", '"x"')], found


def test_a_value_the_script_fills_in_is_not_judged(tmp_path):
    text = SCRIPT.replace('"--seed", "x"', '"--seed", "${SEED}"').replace("--max-modl-len", "--max-model-len")
    found = [(d["code"], _at(text, d)) for d in _check(tmp_path, text)]
    assert found == [("SL103", '"half-ish"')], found
