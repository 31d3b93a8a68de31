#!/bin/sh
# servelint: vllm=0.33.0
# HiSparse without its host pool size (fails at engine startup: no oracle case).
vllm serve ../../../conformance/models/deepseek-v3 \
  --kv-transfer-config '{"kv_connector": "HiSparseConnector", "kv_role": "kv_both"}'
