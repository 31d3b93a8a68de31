#!/bin/sh
# servelint: vllm=0.33.0
# HiSparse from the attention config, with pipeline parallelism.
vllm serve ../../../conformance/rules/models/deepseek-v3-dsa -tp 2 -pp 2 --attention-config '{"hisparse_config": {}}'
# HiSparse from a HiSparseConnector.
vllm serve ../../../conformance/rules/models/deepseek-v3-dsa -tp 2 -pp 2 --kv-transfer-config '{"kv_connector": "HiSparseConnector", "kv_role": "kv_both"}'
# No HiSparse: silent.
vllm serve ../../../conformance/rules/models/deepseek-v3-dsa -tp 2 -pp 2
