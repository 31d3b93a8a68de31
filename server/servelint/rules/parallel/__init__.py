"""``ParallelConfig`` and the parallel sizes the model or the platform cannot take.

``ModelConfig.verify_with_parallel_config`` (vllm/config/model.py) checks,
in this order, that the attention heads split evenly over tensor-parallel
ranks, that expert parallelism has experts to spread and that pipeline
parallelism is implemented by the model class; ``ParallelConfig`` refuses
EPLB without expert parallelism, ``EngineArgs.create_engine_config`` refuses
external data parallelism for dense models, and ``VllmConfig.__post_init__``
refuses microbatching (DBO) without a DeepEP/NIXL all-to-all backend.
"""
