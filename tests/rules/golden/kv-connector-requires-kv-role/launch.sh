#!/bin/sh
# servelint: vllm=0.33.0
# A connector that neither produces nor consumes (refused while parsing: no oracle case).
vllm serve ../../../conformance/models/llama \
  --kv-transfer-config '{"kv_connector": "NixlConnector"}'
