#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case vllm_config_b/nixl_dcp_half_tp.
vllm serve ../../../conformance/models/deepseek-v3 -tp 4 -dcp 2 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
