"""What a rule reads is recorded, not declared (derive.view)."""

from __future__ import annotations

from servelint import argv, knowledge
from servelint.derive import view
from servelint.derive.flags import value_of
from servelint.derive.view import View, memo
from servelint.parse import parse_document


def _view(text: str) -> View:
    (launch,) = parse_document("run.sh", text).launches
    inv = argv.interpret(launch, knowledge.load("0.33.0"))
    return View(inv, path="run.sh", base_dir=None, target="cuda")


def test_flag_env_and_model_reads_are_recorded():
    v = _view("VLLM_USE_V2_MODEL_RUNNER=1 vllm serve Qwen/Qwen3-8B --port 8001 --max-model-len 4096\n")
    v.begin()
    inv = v.invocation
    assert inv.last("port").values[0].text == "8001"
    assert inv.env.get("VLLM_USE_V2_MODEL_RUNNER").value == "1"
    assert "HF_HOME" not in inv.env
    assert inv.model.text == "Qwen/Qwen3-8B"
    assert v.reads() == {("flag", "port"), ("env", "VLLM_USE_V2_MODEL_RUNNER"), ("env", "HF_HOME"), ("model",)}
    assert v.reads() == frozenset()  # each rule starts afresh


def test_reading_every_flag_and_the_launch_is_recorded():
    v = _view("vllm serve Qwen/Qwen3-8B --port 8001\n")
    v.begin()
    assert [f.written for f in v.invocation.flags] == ["--port"]
    _ = v.invocation.launch.problems
    _ = v.invocation.launch.entry_span  # part of every signature: not a read
    assert v.reads() == {view.FLAGS, view.PROBLEMS}


def test_an_attribute_the_view_does_not_know_counts_as_everything():
    v = _view("vllm serve Qwen/Qwen3-8B\n")
    v.begin()
    _ = v.invocation.model_flag  # known
    _ = v.invocation._last  # not modelled: anything may matter
    assert view.EVERYTHING in v.reads()


def test_a_memoised_value_replays_its_reads_into_every_later_caller():
    v = _view("vllm serve Qwen/Qwen3-8B --max-model-len 4096 --port 1\n")
    calls = []

    def compute():
        calls.append(1)
        return v.invocation.last("max_model_len").values[0].text

    v.begin()
    assert memo(v.invocation, ("test",), compute) == "4096"
    first = v.reads()
    v.begin()
    assert memo(v.invocation, ("test",), compute) == "4096"
    assert calls == [1]  # computed once ...
    assert v.reads() == first == {("flag", "max_model_len")}  # ... read by both


def test_derive_functions_record_what_they_read():
    v = _view("vllm serve Qwen/Qwen3-8B --max-model-len 4096\n")
    v.begin()
    assert value_of(v.invocation, "max_model_len").value == 4096
    assert v.reads() == {("flag", "max_model_len")}
    v.begin()
    assert value_of(v.invocation, "max_model_len").value == 4096  # cached, still recorded
    assert v.reads() == {("flag", "max_model_len")}
