#!/bin/sh
# servelint: vllm=0.33.0
# A zero-sized host pool.
vllm serve ../../../conformance/models/deepseek-v3 \
  --kv-transfer-config '{"kv_connector": "MultiConnector", "kv_role": "kv_both", "kv_connector_extra_config": {"connectors": [{"kv_connector": "HiSparseConnector", "kv_connector_extra_config": {"host_pool_gib": 0}}]}}'
