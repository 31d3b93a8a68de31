"""``MambaConfig`` and the Mamba side of ``CacheConfig``, checked without ``--use-replayssm``."""
