"""``ECTransferConfig`` (``vllm/config/ec_transfer.py``): the
`--ec-transfer-config` JSON (encoder-cache transfer) that
``ECTransferConfig.__post_init__`` refuses while the arguments are parsed."""
