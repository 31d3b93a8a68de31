"""A script's state is shared, not copied: per statement (the snapshots an
edit is re-read from) and per launch (the exported environment), and still
reads exactly as a full copy would."""

from __future__ import annotations

import pickle
import random

import pytest

from servelint.model import Env, EnvVar
from servelint.parse import parse_document
from servelint.parse.dump import dump_document
from servelint.text import Span


def _many(n: int) -> str:
    out = ["#!/bin/bash"]
    for i in range(n):
        out.append(f"export PATH_{i}=/opt/{i}")
        out.append(f"NAME_{i}=${{NAME_{i}:-v{i}}}")
        if i % 3 == 0:
            out.append(f"CUDA_VISIBLE_DEVICES={i % 8} vllm serve m{i} --port {8000 + i} \\\n  --max-model-len 4096 &")
        if i % 7 == 0:
            out.append(f"wait_{i}() {{\n  curl -sf http://127.0.0.1:{8000 + i}/health\n}}")
        if i % 11 == 0:
            out.append(f"unset PATH_{i - 5 if i > 5 else 0}")
    return "\n".join(out) + "\n"


def test_launches_share_the_exported_environment():
    """300 exported variables, 100 launches: each variable's entry exists
    once (or once more after a change), not once per launch."""
    text = _many(300)
    doc = parse_document("run.sh", text)
    assert len(doc.launches) == 100
    entries = {id(v) for launch in doc.launches for v in launch.env.values()}
    assert sum(len(launch.env) for launch in doc.launches) > 10_000
    assert len(entries) < 2 * 300 + 2 * len(doc.launches)
    last = doc.launches[-1]
    assert last.env["PATH_297"].value == "/opt/297"
    assert "PATH_281" not in last.env  # unset after 286
    assert "NAME_5" not in last.env  # set, never exported
    assert last.env["CUDA_VISIBLE_DEVICES"].value == str(297 % 8)
    assert dict(last.env) == last.env and len(dict(last.env)) == len(last.env)


def test_a_subshell_export_stays_in_the_subshell():
    text = "export A=1\n(export Z=1; vllm serve q)\nvllm serve m\n"
    inner, after = parse_document("run.sh", text).launches
    assert set(inner.env) == {"A", "Z"}
    assert set(after.env) == {"A"}


def test_a_local_shadowing_an_export_is_not_exported():
    text = "export A=1\nf() {\n  local A=2\n  vllm serve m\n}\nf\n"
    (launch,) = parse_document("run.sh", text).launches
    assert "A" not in launch.env


EDITS = ["x", " ", "\n", "$", "1", "export PATH_1=/x\n", "unset NAME_3\n", "f\n", "(export Q=1)\n", "#", " -x"]


def test_edits_far_from_a_full_copy_of_the_state_match_a_full_parse():
    """Snapshots are places in a log with a full copy now and then: an edit
    anywhere (right after a copy, long after one) re-reads from the state a
    full parse has there."""
    rng = random.Random(3)
    start = _many(120)
    text = start
    doc = parse_document("run.sh", text)
    incremental = 0
    for n in range(300):
        if n % 15 == 0:  # random edits soon break the script for good; start over
            text = start
        i = rng.randrange(len(text) + 1)
        if rng.random() < 0.6:  # mostly in launches, which a re-read can take alone
            i = text.find("--max-model-len", i)
            i = rng.randrange(len(text) + 1) if i < 0 else i + rng.randrange(16)
        if rng.random() < 0.3:
            text = text[:i] + text[i + rng.randrange(1, 4):]
        else:
            text = text[:i] + rng.choice(EDITS) + text[i:]
        doc = parse_document("run.sh", text, previous=doc)
        assert dump_document(doc, text) == dump_document(parse_document("run.sh", text), text)
        incremental += bool(doc.cache is not None and doc.cache.from_edit)
    assert incremental > 50


def _var(name: str, value: str) -> EnvVar:
    return EnvVar(name, value, Span(0, 1))


def test_env_reads_and_changes_like_a_dict_without_changing_its_base():
    base = Env({"A": _var("A", "1"), "B": _var("B", "2")}).freeze()
    env = Env.over(base)
    env["C"] = _var("C", "3")
    del env["A"]
    assert env == {"B": _var("B", "2"), "C": _var("C", "3")}
    assert len(env) == 2 and "A" not in env and env.get("A") is None
    env["A"] = _var("A", "9")
    assert env["A"].value == "9" and len(env) == 3
    assert base == {"A": _var("A", "1"), "B": _var("B", "2")}
    with pytest.raises(TypeError):
        base["D"] = _var("D", "4")
    with pytest.raises(KeyError):
        del Env.over(base)["Z"]
    env.clear()
    assert env == {} and not env


def test_env_survives_pickling_as_its_items():
    env = Env({"X": _var("X", "1")}, Env({"Y": _var("Y", "2")}).freeze()).freeze()
    back = pickle.loads(pickle.dumps(env))
    assert back == env and back.frozen
