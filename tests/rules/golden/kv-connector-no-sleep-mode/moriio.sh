#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/qwen3 --enable-sleep-mode \
    --kv-transfer-config '{"kv_connector": "MoRIIOConnector", "kv_role": "kv_both"}'
