"""The obvious fixes rules offer without a record, as the user's text after them.

Did-you-mean renames (unsafe), dropping a duplicate, ``--config=x.yaml`` →
``--config x.yaml``, and dropping a value given to a boolean flag
(``--flag=true`` and ``--flag true``), each in the forms where its layout
matters.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from servelint.engine import Engine
from servelint.edits import apply
from servelint.settings import Settings

CONFIG = "# servelint: vllm=0.33.0\nmax-model-len: 4096\n"
K8S = """\
# servelint: vllm=0.33.0
apiVersion: v1
kind: Pod
metadata:
  name: vllm
spec:
  containers:
  - name: vllm
    image: vllm/vllm-openai:v0.33.0
    args:
{args}"""


def _fixes(tmp_path: Path, name: str, text: str, code: str):
    (tmp_path / "serve.yaml").write_text(CONFIG)
    path = tmp_path / name
    path.write_text(text)
    result = Engine(Settings(use_installed_vllm=False)).lint(str(path), text)
    found = [d for d in result.diagnostics if d.code == code]
    assert found, [(d.code, d.message) for d in result.diagnostics]
    return [(f.title, f.safe, f.preferred, apply(text, f.edits)) for f in found[0].fixes]


SHELL = "#!/bin/sh\n# servelint: vllm=0.33.0\n"


@pytest.mark.parametrize("name,before,after", [
    ("a.sh", SHELL + "vllm serve Qwen/Qwen3-8B --config=serve.yaml --port 8000\n",
     SHELL + "vllm serve Qwen/Qwen3-8B --config serve.yaml --port 8000\n"),
    ("b.sh", SHELL + "vllm serve Qwen/Qwen3-8B \"--config=serve.yaml\"\n",
     SHELL + "vllm serve Qwen/Qwen3-8B --config serve.yaml\n"),
    ("k8s.yaml", K8S.format(args="    - Qwen/Qwen3-8B\n    - --config=serve.yaml\n"),
     K8S.format(args="    - Qwen/Qwen3-8B\n    - --config\n    - serve.yaml\n")),
    ("flow.yaml", K8S.format(args='    - Qwen/Qwen3-8B\n').replace('    args:\n    - Qwen/Qwen3-8B\n',
                                                              '    args: ["Qwen/Qwen3-8B", "--config=serve.yaml"]\n'),
     K8S.format(args='').replace('    args:\n', '    args: ["Qwen/Qwen3-8B", "--config", "serve.yaml"]\n')),
])
def test_config_equals_becomes_two_words(tmp_path, name, before, after):
    [(title, safe, preferred, fixed)] = _fixes(tmp_path, name, before, "SL002")
    assert (title, safe, preferred) == ("Use --config serve.yaml", True, True)
    assert fixed == after


def test_config_equals_naming_a_missing_file_gets_no_fix_that_breaks(tmp_path):
    text = SHELL + "vllm serve Qwen/Qwen3-8B --config=missing.yaml\n"
    for title, _, _, fixed in _fixes(tmp_path, "a.sh", text, "SL002"):
        result = Engine(Settings(use_installed_vllm=False)).lint(str(tmp_path / "a.sh"), fixed)
        assert not [d for d in result.diagnostics if d.severity == 1], title


@pytest.mark.parametrize("name,before,after", [
    ("a.sh", SHELL + "vllm serve Qwen/Qwen3-8B --enforce-eager true --port 8000\n",
     SHELL + "vllm serve Qwen/Qwen3-8B --enforce-eager --port 8000\n"),
    ("b.sh", SHELL + "vllm serve Qwen/Qwen3-8B \\\n  --port 8000 \\\n  --enforce-eager \\\n  true\n",
     SHELL + "vllm serve Qwen/Qwen3-8B \\\n  --port 8000 \\\n  --enforce-eager\n"),
    ("k8s.yaml", K8S.format(args="    - Qwen/Qwen3-8B\n    - --enforce-eager\n    - \"true\"\n    - --port\n    - \"8000\"\n"),
     K8S.format(args="    - Qwen/Qwen3-8B\n    - --enforce-eager\n    - --port\n    - \"8000\"\n")),
])
def test_a_value_given_to_a_boolean_flag_is_dropped(tmp_path, name, before, after):
    [(title, safe, preferred, fixed)] = _fixes(tmp_path, name, before, "SL106")
    assert (title, safe, preferred) == ("Remove true", True, True)
    assert fixed == after


def test_false_given_to_a_boolean_flag_turns_it_off(tmp_path):
    text = SHELL + "vllm serve Qwen/Qwen3-8B --enable-prefix-caching false\n"
    [(title, safe, _, fixed)] = _fixes(tmp_path, "a.sh", text, "SL106")
    assert (title, safe) == ("Replace with --disable-prefix-caching", False)
    assert fixed == SHELL + "vllm serve Qwen/Qwen3-8B --disable-prefix-caching\n"


def test_equals_true_is_dropped(tmp_path):
    text = SHELL + "vllm serve Qwen/Qwen3-8B --enforce-eager=true\n"
    [(title, safe, _, fixed)] = _fixes(tmp_path, "a.sh", text, "SL103")
    assert (title, safe) == ("Remove =true", True)
    assert fixed == SHELL + "vllm serve Qwen/Qwen3-8B --enforce-eager\n"


def test_the_earlier_duplicate_is_dropped(tmp_path):
    text = SHELL + "vllm serve Qwen/Qwen3-8B \\\n  --max-model-len 4096 \\\n  --port 8000 \\\n  --max-model-len 8192\n"
    [(title, safe, preferred, fixed)] = _fixes(tmp_path, "a.sh", text, "SL104")
    assert (title, safe, preferred) == ("Remove the earlier --max-model-len", True, True)
    assert fixed == SHELL + "vllm serve Qwen/Qwen3-8B \\\n  --port 8000 \\\n  --max-model-len 8192\n"


def test_did_you_mean_is_unsafe_and_keeps_the_key_style(tmp_path):
    text = "# servelint: vllm=0.33.0\nmodel: Qwen/Qwen3-8B\nmax_modl_len: 4096\ntensor-parallel-size: 1\n"
    fixes = _fixes(tmp_path, "cfg.yaml", text, "SL101")
    title, safe, preferred, fixed = fixes[0]
    assert (title, safe, preferred) == ("Replace with --max-model-len", False, True)
    assert "\nmax_model_len: 4096\n" in fixed


COMPOSE = "# servelint: vllm=0.33.0\nservices:\n  vllm:\n    image: vllm/vllm-openai:v0.33.0\n    command: {command}\n"


@pytest.mark.parametrize("name,before,after,title,safe", [
    ("a.sh", SHELL + "vllm serve Qwen/Qwen3-8B \"--max-model-len 4096\" --port 8000\n",
     SHELL + "vllm serve Qwen/Qwen3-8B --max-model-len 4096 --port 8000\n",
     "Write --max-model-len 4096 as 2 arguments", True),
    ("b.sh", SHELL + "vllm serve Qwen/Qwen3-8B '--enforce-eager --seed 1'\n",
     SHELL + "vllm serve Qwen/Qwen3-8B --enforce-eager --seed 1\n",
     "Write --enforce-eager --seed 1 as 3 arguments", True),
    ("c.sh", SHELL + "vllm serve Qwen/Qwen3-8B \"--chat-template x.jinja\"\n",
     SHELL + "vllm serve Qwen/Qwen3-8B --chat-template x.jinja\n",
     "Write --chat-template x.jinja as 2 arguments", True),
    ("k8s.yaml", K8S.format(args="    - Qwen/Qwen3-8B\n    - \"--quantization fp8\"\n    - --port\n    - \"8000\"\n"),
     K8S.format(args="    - Qwen/Qwen3-8B\n    - --quantization\n    - fp8\n    - --port\n    - \"8000\"\n"),
     "Write --quantization fp8 as 2 arguments", True),
    ("number.yaml", K8S.format(args="    - Qwen/Qwen3-8B\n    - \"--max-num-seqs 64\"\n"),
     K8S.format(args="    - Qwen/Qwen3-8B\n    - --max-num-seqs\n    - '64'\n"),
     "Write --max-num-seqs 64 as 2 arguments", True),
    ("eq.yaml", K8S.format(args="    - Qwen/Qwen3-8B\n    - --served-model-name=qwen --seed 1\n"),
     K8S.format(args="    - Qwen/Qwen3-8B\n    - --served-model-name=qwen\n    - --seed\n    - '1'\n"),
     "Write --served-model-name=qwen --seed 1 as 3 arguments", False),
    ("trailing.yaml", K8S.format(args="    - Qwen/Qwen3-8B\n    - \"--enforce-eager \"\n"),
     K8S.format(args="    - Qwen/Qwen3-8B\n    - --enforce-eager\n"),
     "Remove the whitespace after --enforce-eager", True),
    ("compose.yaml", COMPOSE.format(command='["Qwen/Qwen3-8B", "--gpu-memory-utilization 0.85", "--seed", "1"]'),
     COMPOSE.format(command='["Qwen/Qwen3-8B", "--gpu-memory-utilization", "0.85", "--seed", "1"]'),
     "Write --gpu-memory-utilization 0.85 as 2 arguments", True),
])
def test_a_joined_argument_is_written_as_the_arguments_it_holds(tmp_path, name, before, after, title, safe):
    [(got_title, got_safe, preferred, fixed)] = _fixes(tmp_path, name, before, "SL014")
    assert (got_title, got_safe, preferred) == (title, safe, True)
    assert fixed == after
    # The fixed launch has neither the joined word nor an extra argument.
    result = Engine(Settings(use_installed_vllm=False)).lint(str(tmp_path / name), fixed)
    assert not [d for d in result.diagnostics if d.code in ("SL014", "SL106", "SL101")], [d.message for d in result.diagnostics]


def test_a_joined_argument_is_not_also_an_extra_or_unknown_argument(tmp_path):
    text = SHELL + "vllm serve Qwen/Qwen3-8B \"--max-model-len 4096\"\n"
    path = tmp_path / "a.sh"
    result = Engine(Settings(use_installed_vllm=False)).lint(str(path), text)
    assert [(d.code, d.span.start) for d in result.diagnostics] == [("SL014", text.index('"--max'))]


def test_a_joined_argument_built_from_a_variable_gets_no_fix(tmp_path):
    text = SHELL + 'ARGS="--max-model-len 4096"\nvllm serve Qwen/Qwen3-8B "$ARGS"\n'
    path = tmp_path / "a.sh"
    path.write_text(text)
    result = Engine(Settings(use_installed_vllm=False)).lint(str(path), text)
    found = [d for d in result.diagnostics if d.code == "SL014"]
    assert len(found) == 1 and found[0].fixes == []


def test_the_removed_demo_server_becomes_vllm_serve(tmp_path):
    before = SHELL + "python -m vllm.entrypoints.api_server --model facebook/opt-125m --port 8001\n"
    [(title, safe, preferred, fixed)] = _fixes(tmp_path, "a.sh", before, "SL021")
    assert (title, safe, preferred) == ("Use vllm serve", False, True)
    assert fixed == SHELL + "vllm serve facebook/opt-125m --port 8001\n"
