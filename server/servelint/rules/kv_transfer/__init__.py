"""``KVTransferConfig`` (``vllm/config/kv_transfer.py``): the
`--kv-transfer-config` JSON that ``KVTransferConfig.__post_init__`` refuses
while the arguments are parsed, and the HiSparse connector's host pool that
``hisparse_host_pool_gib`` checks when the KV cache is laid out."""
