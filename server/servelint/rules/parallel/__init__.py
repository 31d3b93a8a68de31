"""``ParallelConfig``, the data-parallel launch and the multi-port supervisor.

``ModelConfig.verify_with_parallel_config`` (vllm/config/model.py) checks,
in this order, that the attention heads split evenly over tensor-parallel
ranks, that expert parallelism has experts to spread and that pipeline
parallelism is implemented by the model class; ``ParallelConfig`` refuses
EPLB without expert parallelism, bad NUMA binding lists, DCP/PCP sizes that
do not fit the tensor-parallel ranks, elastic EP without EPLB and
data-parallel ranks outside the data-parallel size;
``EngineArgs.create_engine_config`` resolves the data-parallel launch
(``--nnodes``/``--node-rank``, external and hybrid load balancing: see
``derive.parallel.data_parallel_launch``) and refuses external data
parallelism for dense models; ``VllmConfig.__post_init__`` refuses
microbatching (DBO) without a DeepEP/NIXL all-to-all backend; and
``validate_multi_port_external_lb_args`` (vllm/entrypoints/launchers/
dp_supervisor.py) checks a ``--data-parallel-multi-port-external-lb``
launch before anything starts.
"""
