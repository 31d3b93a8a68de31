"""After any sequence of edits, the incremental engine says exactly what a
fresh lint of the final text says: same diagnostics, same places, same
related places (an ``export`` above the edit, one below it) and same fix
edits.  The reuse paths (a launch below the edit kept as it is, one above it
moved, one found again by its words) are each exercised by these edits."""

from __future__ import annotations

import random

import pytest

from servelint.engine import Engine
from servelint.settings import Settings

SETTINGS = Settings(use_installed_vllm=False)


def _script(rng: random.Random, n: int) -> str:
    out = ["#!/bin/sh", "# servelint: vllm=0.33.0", "export VLLM_USE_V2_MODEL_RUNNER=1"]
    for i in range(n):
        out.append(f"export PATH_{i}=/opt/{i}")
        flags = rng.sample(["--max-model-len 4096", "--port 8000", "--enforce-eager", "--dtype bf16",
                            "--tensor-paralel-size 2", "--use-replayssm", "--gpu-memory-utilization 95",
                            "--enable-prefix-caching", "--port 1"], k=3)
        model = rng.choice(["Qwen/Qwen3-8B", "nvidia/Nemotron-H-8B-Base-8K", "mistralai/Mamba-Codestral-7B-v0.1"])
        if rng.random() < 0.5:
            out.append(f"vllm serve {model} " + " ".join(flags))
        else:
            out.append(f"vllm serve {model} \\\n  " + " \\\n  ".join(flags))
        if rng.random() < 0.3:
            out.append(f"if [ -n \"$X{i}\" ]; then\n  echo {i}\nfi")
    return "\n".join(out) + "\n"


def _manifest(rng: random.Random, n: int) -> str:
    docs = []
    for i in range(n):
        flag = rng.choice(["--max-model-len=4096", "--tensor-paralel-size=2", "--dtype=bf16", "--port=8000"])
        docs.append(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: m{i}\nspec:\n  template:\n    spec:\n"
            "      containers:\n      - name: vllm\n        image: vllm/vllm-openai:v0.33.0\n"
            "        env:\n        - name: VLLM_USE_V2_MODEL_RUNNER\n          value: \"1\"\n"
            "        args: [\"--model\", \"Qwen/Qwen3-8B\", \"{flag}\", \"--use-replayssm\"]\n".format(i=i, flag=flag)
        )
    return "---\n".join(docs)


def _seen(result) -> list:
    return [
        (d.code, d.span, d.message, [(r.path, r.span, r.message) for r in d.related],
         [[(e.path, e.span, e.new_text) for e in f.edits] for f in d.fixes])
        for d in result.diagnostics
    ]


INSERTS = ["x", " ", "\n", "-", " --port 1", "# c\n", "export A=1\n", "\\\n", "'", "fi\n"]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("form", ["shell", "kubernetes"])
def test_incremental_equals_fresh(form: str, seed: int) -> None:
    rng = random.Random(seed)
    text = _script(rng, 25) if form == "shell" else _manifest(rng, 8)
    path = "/work/launch.sh" if form == "shell" else "/work/serve.yaml"
    engine = Engine(SETTINGS)
    engine.lint(path, text)
    for step in range(60):
        at = rng.randrange(len(text) + 1)
        op = rng.random()
        if op < 0.45:
            text = text[:at] + rng.choice(INSERTS) + text[at:]
        elif op < 0.85:
            text = text[:at] + text[at + rng.randrange(1, 5):]
        else:
            src = rng.randrange(len(text) + 1)
            text = text[:at] + text[src:src + 12] + text[at:]
        got = _seen(engine.lint(path, text))
        want = _seen(Engine(SETTINGS).lint(path, text))
        assert got == want, f"step {step}:\n{text}"


def _pinned(rng: random.Random, n: int) -> str:
    # No directive: each launch takes the release named nearest above it,
    # and the reason names that line, so lines typed above a pin move it.
    out = ["#!/bin/sh"]
    for i in range(n):
        if rng.random() < 0.4:
            out.append(rng.choice(["pip install vllm==0.28.0", "# vllm==0.30.0", "pip install 'vllm==0.33.0'"]))
        out.append(f"vllm serve Qwen/Qwen3-8B --use-replayssm --port {8000 + i}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("seed", range(4))
def test_release_choices_follow_edits(seed: int) -> None:
    # An edit that leaves the hints alone keeps each launch's release without
    # choosing it again; these edits type and delete lines, hints and
    # characters inside hints, and every launch's release (version and the
    # reason the hover shows) must be the fresh lint's.
    rng = random.Random(seed)
    text = _pinned(rng, 20)
    path = "/work/pinned.sh"
    engine = Engine(SETTINGS)
    engine.lint(path, text)
    inserts = ["\n", "x", "# vllm==0.29.0\n", "pip install vllm==0.31.0\n", "1", "echo\n"]
    for step in range(80):
        at = rng.randrange(len(text) + 1)
        if rng.random() < 0.55:
            text = text[:at] + rng.choice(inserts) + text[at:]
        else:
            text = text[:at] + text[at + rng.randrange(1, 4):]
        got = engine.lint(path, text)
        want = Engine(SETTINGS).lint(path, text)
        assert _seen(got) == _seen(want), f"step {step}:\n{text}"
        assert ([(r.launch.span, r.release.version, r.release.reason) for r in got.launches]
                == [(r.launch.span, r.release.version, r.release.reason) for r in want.launches]), f"step {step}:\n{text}"
