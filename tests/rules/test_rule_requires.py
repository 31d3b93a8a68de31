"""``Rule.requires``: the engine imports only the rules a launch can trigger.

A rule's ``requires`` names the flags or variables at least one of which a
launch must set for it to report; the engine does not import the others
(tests/conftest.py turns on the check that runs them anyway and reports one
that finds something).  Here: the generated index is current, every name is
a flag or variable servelint knows, a launch that sets none of a rule's
names is not judged by it, and a one-line script imports only what it needs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from servelint.engine import Engine
from servelint.knowledge import load as load_knowledge
from servelint.rules import registry
from servelint.settings import Settings

REPO = Path(__file__).resolve().parents[2]
MODELS = [p for base in ("tests/conformance/models", "tests/conformance/rules/models")
          for p in sorted((REPO / base).iterdir()) if (p / "config.json").is_file()]


def test_the_index_is_current():
    done = subprocess.run([sys.executable, "tools/rule_index.py", "--check"], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_every_required_name_is_a_flag_or_a_variable():
    dests = set()
    for version in ("0.25.0", "0.33.0"):
        kn = load_knowledge(version)
        dests |= {o.dest for o in kn.options}
    bad = []
    for cls in registry.rule_classes():
        for name in cls.requires or ():
            if name.startswith("@"):
                continue
            if name.startswith("-"):
                if registry.requirement(name) not in dests:
                    bad.append(f"{cls.code} {name}")
            elif not (name.isupper() and "_" in name):
                bad.append(f"{cls.code} {name}")
    assert bad == []


def _lint(tmp_path: Path, name: str, text: str, **settings):
    path = tmp_path / name
    path.write_text(text)
    return Engine().lint(str(path), text, settings=Settings(**settings) if settings else None).diagnostics


@pytest.mark.parametrize("model", MODELS, ids=lambda p: p.name)
def test_a_bare_launch_of_each_model_is_judged_only_by_rules_that_need_no_flag(tmp_path, model):
    # The forms a launch takes with no flag at all: a script, a pod that asks
    # for a GPU (deployment facts), a script that picks GPUs by variable.
    texts = {
        "run.sh": f"vllm serve {model}\n",
        "gpus.sh": f"CUDA_VISIBLE_DEVICES=0,1 vllm serve {model}\n",
        "pod.yaml": (
            "apiVersion: v1\nkind: Pod\nmetadata: {name: m}\nspec:\n  containers:\n  - name: m\n"
            "    image: vllm/vllm-openai:v0.33.0\n"
            f"    args: [\"{model}\"]\n"
            "    resources: {limits: {nvidia.com/gpu: 1}}\n"
            "  nodeSelector: {nvidia.com/gpu.product: Tesla-T4}\n"
        ),
    }
    for name, text in texts.items():
        wrong = [d.message for d in _lint(tmp_path, name, text) if "reported on a launch that sets none" in d.message]
        assert wrong == [], name


def test_a_one_line_script_imports_only_the_rules_it_can_trigger(tmp_path):
    script = tmp_path / "serve.sh"
    script.write_text("vllm serve Qwen/Qwen3-8B --max-model-len 4096\n")
    code = (
        "import json, sys\n"
        "from servelint.cli import main\n"
        f"main(['check', '--format', 'json', '--fail-on', 'never', {str(script)!r}])\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('servelint.rules.'))), file=sys.stderr)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "SERVELINT_CHECK_REQUIRES"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    imported = set(json.loads(done.stderr.strip().splitlines()[-1]))
    assert json.loads(done.stdout)["diagnostics"] == []
    rules = {m.removeprefix("servelint.rules.") for m in imported if not m.rpartition(".")[2].startswith("_")}
    rules = {m for m in rules if "." in m}  # rule modules, not family packages
    present = frozenset({"max_model_len"})
    wanted = {e.module for e in registry.index() if e.problem is not None or e.wanted(present)}
    # Exactly the rules whose requires the launch meets (and the parse-level ones).
    assert rules == wanted
    assert not any(m.startswith("deployment.") for m in rules)  # the file says nothing of GPUs
    assert any(e.requires and "max_model_len" in e.requires for e in registry.index() if e.module in rules)
