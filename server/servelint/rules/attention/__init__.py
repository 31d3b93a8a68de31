"""``AttentionConfig``: the attention backends and their options.

``AttentionConfig`` (vllm/config/attention.py) is built while argparse reads
``--attention-config`` (``-ac``): its before-validators turn backend names
into ``AttentionBackendEnum`` members (vllm/v1/attention/backends/registry.py,
whose ``__getitem__`` names the valid ones) and check ``backend_per_kind``'s
KV cache group kinds; its ``__post_init__`` checks the MiniMax M3 indexer
options.  ``EngineArgs.create_engine_config`` parses ``--attention-backend``
with the same validator.
"""
