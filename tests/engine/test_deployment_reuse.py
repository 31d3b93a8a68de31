"""What the rest of a document adds to a launch (a Service's targetPort, the
job's ``#SBATCH`` lines) is part of what its deployment findings rest on:
an edit that moves it keeps the findings, moved; one that changes it checks
the launch again; and after any edits the engine says what a fresh lint says."""

from __future__ import annotations

import random

import pytest

from servelint.engine import Engine
from servelint.settings import Settings

SETTINGS = Settings(use_installed_vllm=False)

MANIFEST = """# servelint: vllm=0.33.0
apiVersion: apps/v1
kind: Deployment
metadata:
  name: qwen
spec:
  template:
    metadata:
      labels: {app: qwen}
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.33.0
          args: ["Qwen/Qwen3-8B"]
---
apiVersion: v1
kind: Service
metadata:
  name: qwen
spec:
  selector: {app: qwen}
  ports:
    - port: 80
      targetPort: 8080
"""

JOB = """#!/bin/bash
#SBATCH --nodes=1
#SBATCH --gres=gpu:2
# servelint: vllm=0.33.0
module load cuda
srun vllm serve Qwen/Qwen3-32B --tensor-parallel-size 4
"""


def _seen(result) -> list:
    return [(d.code, d.span, d.message, [(r.span, r.message) for r in d.related]) for d in result.diagnostics]


def _fresh(path: str, text: str) -> list:
    return _seen(Engine(SETTINGS).lint(path, text))


@pytest.mark.parametrize("path, text, code", [("serve.yaml", MANIFEST, "SL808"), ("job.sbatch", JOB, "SL801")])
def test_a_line_above_moves_the_finding_and_its_related_place_without_rerunning(path, text, code):
    engine = Engine(SETTINGS)
    first = engine.lint(path, text)
    assert [d.code for d in first.diagnostics] == [code]
    before = engine.rule_evaluations
    first_line = text.index("\n") + 1
    edited = text[:first_line] + "# a note\n" + text[first_line:]
    got = engine.lint(path, edited)
    assert engine.rule_evaluations == before
    assert _seen(got) == _fresh(path, edited)
    (d,) = got.diagnostics
    assert got.source.position(d.related[0].span.start)[0] == first.source.position(
        first.diagnostics[0].related[0].span.start)[0] + 1


@pytest.mark.parametrize("path, text, old, new", [
    ("serve.yaml", MANIFEST, "targetPort: 8080", "targetPort: 8000"),
    ("job.sbatch", JOB, "--gres=gpu:2", "--gres=gpu:4"),
])
def test_changing_what_the_document_adds_checks_the_launch_again(path, text, old, new):
    engine = Engine(SETTINGS)
    engine.lint(path, text)
    edited = text.replace(old, new)
    assert _seen(engine.lint(path, edited)) == _fresh(path, edited) == []


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("path, text", [("serve.yaml", MANIFEST + "---\n" + MANIFEST.split("---\n")[0]),
                                        ("job.sbatch", JOB + JOB.split("module load cuda\n")[1])])
def test_random_edits_end_equal_to_a_fresh_lint(path, text, seed):
    rng = random.Random(seed)
    engine = Engine(SETTINGS)
    engine.lint(path, text)
    for step in range(40):
        at = rng.randrange(len(text) + 1)
        if rng.random() < 0.5:
            text = text[:at] + rng.choice(["x", " ", "\n", "2", "# c\n", "8000"]) + text[at:]
        else:
            text = text[:at] + text[at + rng.randrange(1, 4):]
        assert _seen(engine.lint(path, text)) == _fresh(path, text), f"step {step}:\n{text}"
