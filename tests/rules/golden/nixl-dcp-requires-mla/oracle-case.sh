#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case vllm_config_b/nixl_dcp_mqa.
vllm serve ../../../conformance/rules/models/llama-mqa -tp 2 -dcp 2 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
