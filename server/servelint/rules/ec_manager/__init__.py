"""``EncoderCacheManagerConfig`` (``vllm/config/ec_manager_config.py``): the
`--ec-manager-config` JSON that ``EncoderCacheManagerConfig.__post_init__``
refuses while the engine arguments are built."""
