"""``MultiModalConfig`` (vllm/config/multimodal.py): the checks of the
`--mm-*` flags that vLLM runs when it builds the multimodal config, which it
does only for a multimodal architecture (``ModelConfig.__post_init__``), and
the multimodal check of ``ModelConfig.verify_with_parallel_config``
(vllm/config/model.py)."""
