"""``OffloadConfig`` (``vllm/config/offload.py``): the prefetch offloading
options (`--offload-backend`, `--offload-group-size`,
`--offload-num-in-group`, `--offload-prefetch-step`) that
``OffloadConfig.validate_offload_config`` refuses together."""
