"""The data-parallel launch as EngineArgs.create_engine_config resolves it
(derive.parallel.data_parallel_launch), release by release."""

from __future__ import annotations

import pytest

from servelint import argv, knowledge
from servelint.derive.parallel import data_parallel_args, data_parallel_launch
from servelint.derive.view import View
from servelint.parse import parse_document
from servelint.parse.vllm_config import parse_vllm_config


def _launch(text: str, version: str = "0.33.0", path: str = "run.sh"):
    parse = parse_vllm_config if path.endswith(".yaml") else parse_document
    (launch,) = parse(path, text).launches
    inv = argv.interpret(launch, knowledge.load(version))
    return data_parallel_launch(View(inv, path=path, base_dir=None, target="cuda"))


def test_defaults_are_one_local_internal_rank():
    dp = _launch("vllm serve m\n")
    assert (dp.size, dp.size_local, dp.rank, dp.external_lb, dp.hybrid_lb) == (1, 1, 0, False, False)


def test_a_written_rank_means_external_load_balancing_with_one_local_rank():
    dp = _launch("vllm serve m --data-parallel-size 4 --data-parallel-rank 3\n")
    assert (dp.size_local, dp.rank, dp.external_lb, dp.has_rank) == (1, 3, True, True)


def test_internal_lb_over_nodes_infers_the_local_size():
    dp = _launch("vllm serve m --data-parallel-size 4 -tp 2 --nnodes 2 --node-rank 1\n")
    # world 8 over 2 nodes: 4 GPUs per node, 2 ranks of TP 2 each; node 1 starts at rank 2.
    assert (dp.size_local, dp.rank, dp.external_lb) == (2, 2, False)


@pytest.mark.parametrize(("version", "rank"), [("0.30.0", 1), ("0.31.0", 0)])
def test_external_lb_over_nodes_keeps_a_written_rank_from_0_31(version, rank):
    dp = _launch("vllm serve m --data-parallel-size 2 --data-parallel-external-lb --nnodes 2 --node-rank 1 "
                 "--data-parallel-rank 0\n", version)
    assert dp.rank == rank


@pytest.mark.parametrize(("version", "hybrid"), [("0.27.1", False), ("0.28.0", True)])
def test_a_start_rank_of_0_infers_hybrid_lb_from_0_28(version, hybrid):
    dp = _launch("vllm serve m --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-start-rank 0\n",
                 version)
    assert dp.hybrid_lb is hybrid


def test_hybrid_lb_with_one_local_rank_switches_to_external():
    dp = _launch("vllm serve m --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-start-rank 1 "
                 "--data-parallel-hybrid-lb\n")
    assert (dp.external_lb, dp.hybrid_lb, dp.autoswitched, dp.rank) == (True, False, True, 1)


@pytest.mark.parametrize("text", [
    "vllm serve m --data-parallel-size $DP\n",  # not known from the file
    "vllm serve m --headless --data-parallel-size 2\n",  # run_headless: no hybrid inference
    "vllm serve m --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-multi-port-external-lb\n",
])
def test_unknown_when_the_file_does_not_decide_it(text):
    assert _launch(text) is None


def _args(text: str, version: str = "0.33.0", path: str = "run.sh"):
    parse = parse_vllm_config if path.endswith(".yaml") else parse_document
    (launch,) = parse(path, text).launches
    inv = argv.interpret(launch, knowledge.load(version))
    return data_parallel_args(View(inv, path=path, base_dir=None, target="cuda"))


def test_the_arguments_are_as_written_before_any_inference():
    args = _args("vllm serve m --data-parallel-size 4 --nnodes 2 --node-rank 1 --data-parallel-backend ray\n")
    assert (args.size, args.size_local, args.rank, args.nnodes, args.node_rank, args.backend) == (4, None, None, 2, 1,
                                                                                               "ray")


def test_an_unknown_backend_leaves_the_other_arguments_known():
    args = _args("vllm serve m --data-parallel-size 4 --data-parallel-backend $BACKEND\n")
    assert (args.size, args.backend) == (4, None)


@pytest.mark.parametrize("text", [
    "vllm serve m --nnodes $NODES\n",
    "vllm serve m --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-multi-port-external-lb\n",
])
def test_no_arguments_when_the_file_does_not_decide_them(text):
    assert _args(text) is None


def test_in_a_config_file_linted_alone_an_option_it_does_not_write_is_unknown():
    assert _args("data-parallel-size: 2\n", path="config.yaml") is None
    assert _launch("data-parallel-size: 2\n", path="config.yaml") is None
