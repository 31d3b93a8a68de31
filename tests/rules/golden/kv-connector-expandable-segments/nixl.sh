#!/usr/bin/env bash
# servelint: vllm=0.33.0
export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
vllm serve ../../../conformance/models/qwen3 --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "kv_both"}'
# The cumem allocator keeps the KV cache on stable pages: accepted.
vllm serve ../../../conformance/models/qwen3 --enable-cumem-allocator --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "kv_both"}'
vllm serve ../../../conformance/models/qwen3 --kv-offloading-size 4
