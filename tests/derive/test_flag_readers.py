"""Reading one option as the file shows it (derive.flags): the deciding flag
with a known value, integers and switches, and defaults that a --config file
linted on its own cannot vouch for."""

from __future__ import annotations

from servelint import argv, knowledge
from servelint.derive.flags import file_value, int_of, known_flag, switch
from servelint.parse import parse_document
from servelint.parse.vllm_config import parse_vllm_config


def _inv(text: str, path: str = "run.sh", version: str = "0.33.0"):
    parse = parse_vllm_config if path.endswith(".yaml") else parse_document
    (launch,) = parse(path, text).launches
    return argv.interpret(launch, knowledge.load(version))


def test_known_flag_is_the_first_of_the_options_written_with_a_known_value():
    inv = _inv("vllm serve m --node-rank $RANK --data-parallel-size-local 2 --data-parallel-start-rank 0\n")
    flag = known_flag(inv, "node_rank", "data_parallel_size_local", "data_parallel_start_rank")
    assert flag.written == "--data-parallel-size-local"
    assert known_flag(inv, "node_rank") is None  # written, but not known from the file
    assert known_flag(inv, "nnodes") is None  # not written


def test_the_last_spelling_decides():
    inv = _inv("vllm serve m -tp 2 --tensor-parallel-size 4\n")
    assert known_flag(inv, "tensor_parallel_size").written == "--tensor-parallel-size"
    assert int_of(inv, "tensor_parallel_size").value == 4


def test_a_launch_takes_the_release_defaults():
    inv = _inv("vllm serve m\n")
    assert (int_of(inv, "data_parallel_size").value, switch(inv, "enable_eplb")) == (1, False)
    assert file_value(inv, "data_parallel_size").how == "default"


def test_a_config_file_linted_alone_does_not_vouch_for_the_defaults():
    inv = _inv("enable-eplb: true\n", path="config.yaml")
    assert switch(inv, "enable_eplb") is True
    assert switch(inv, "enable_expert_parallel") is None
    assert not int_of(inv, "data_parallel_size").known


def test_an_option_the_release_does_not_have_is_off_even_in_a_config_file():
    # --enable-fault-tolerance came in 0.27.0.
    assert switch(_inv("enable-eplb: true\n", path="config.yaml", version="0.25.0"), "enable_fault_tolerance") is False
    assert switch(_inv("enable-eplb: true\n", path="config.yaml", version="0.33.0"), "enable_fault_tolerance") is None
