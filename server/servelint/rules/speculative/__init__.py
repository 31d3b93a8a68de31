"""``SpeculativeConfig``: speculative-decoding configs vLLM refuses.

``--speculative-config`` is plain JSON until ``EngineArgs.
create_speculative_config`` merges the shortcuts ``--spec-method``,
``--spec-model`` and ``--spec-tokens`` into it and builds
``SpeculativeConfig(**dict)`` (vllm/config/speculative.py) while creating the
engine config (``servelint.derive.speculative.speculative_args``).  Its
``__post_init__`` infers the method and the draft model
(``derive.speculative.proposer``), then ``_verify_args`` checks the result;
``VllmConfig`` checks it against the rest of the launch.
"""
