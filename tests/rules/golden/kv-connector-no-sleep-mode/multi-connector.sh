#!/usr/bin/env bash
# servelint: vllm=0.33.0
# A MultiConnector supports sleep mode only when every child does.
vllm serve ../../../conformance/models/qwen3 --enable-sleep-mode --kv-transfer-config \
    '{"kv_connector": "MultiConnector", "kv_role": "kv_both", "kv_connector_extra_config": {"connectors": [{"kv_connector": "OffloadingConnector", "kv_role": "kv_both"}, {"kv_connector": "NixlPushConnector", "kv_role": "kv_both"}]}}'
