"""``SpeculativeConfig``: speculative-decoding configs vLLM refuses on their own.

``--speculative-config`` is plain JSON until ``EngineArgs.
create_speculative_config`` merges the shortcuts ``--spec-method``,
``--spec-model`` and ``--spec-tokens`` into it and builds
``SpeculativeConfig(**dict)`` (vllm/config/speculative.py) while creating the
engine config (``servelint.derive.speculative.speculative_args``).  Its
``__post_init__`` infers the method and the draft model, then
``_verify_args`` checks the result.  These rules decide only from the keys
written; a draft model's config.json (which may supply ``n_predict``) is not
read, except for the vocabulary check.
"""
