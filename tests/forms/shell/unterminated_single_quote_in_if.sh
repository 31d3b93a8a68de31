#!/bin/bash
if [ -n "$GPU" ]; then
  vllm serve Qwen/Qwen3-8B --kv-transfer-config '{"kv_connector":"NixlConnector"
fi
