#!/usr/bin/env bash
# servelint: vllm=0.33.0
# NIXL supports sleep mode only with the UCX backend alone.
vllm serve ../../../conformance/models/qwen3 --enable-sleep-mode \
    --kv-transfer-config '{"kv_connector": "NixlConnector", "kv_role": "kv_both", "kv_connector_extra_config": {"backends": ["UCX", "LIBFABRIC"]}}'
