#!/bin/bash
# Writes a per-run config and serves with it.
RUN_DIR=$(mktemp -d)
cat > "$RUN_DIR/serve.yaml" <<'YAML'
max-model-len: 16384
gpu-memory-utilization: 0.9
enable-chunked-prefill: true
max-num-batched-tokens: 8192
compilation-config:
  cudagraph_mode: FULL_DECODE_ONLY
YAML

vllm serve Qwen/Qwen3-8B --config "$RUN_DIR/serve.yaml" --port 8000
