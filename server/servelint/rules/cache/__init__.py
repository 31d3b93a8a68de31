"""``CacheConfig``: the KV-cache data type."""
