#!/bin/sh
# servelint: vllm=0.33.0
# DeepSeek-V3 has no DSA indexer (no index_topk).
vllm serve ../../../conformance/models/deepseek-v3 -tp 2 --attention-config '{"hisparse_config": {}}'
# With a HiSparseConnector.
vllm serve ../../../conformance/models/deepseek-v3 -tp 2 --kv-transfer-config '{"kv_connector": "HiSparseConnector", "kv_role": "kv_both"}'
# --hf-overrides may add index_topk: silent.
vllm serve ../../../conformance/models/deepseek-v3 -tp 2 --attention-config '{"hisparse_config": {}}' --hf-overrides '{"index_topk": 2048}'
# A DSA model (index_topk): silent.
vllm serve ../../../conformance/rules/models/deepseek-v3-dsa -tp 2 --attention-config '{"hisparse_config": {}}'
