#!/usr/bin/env bash
# Benchmark launcher: writes the server config, then starts the server.
set -euo pipefail
MODEL=deepseek-ai/DeepSeek-R1
TP=8

cat > config.yaml << EOF2
tensor-parallel-size: ${TP}
max-model-len: 32768
max-num-seqs: 256
no-enable-prefix-caching: true
num-scheduler-steps: 8
compilation-config:
  cudagraph_mode: FULL_AND_PIECEWISE
  use_inductor: false
EOF2

vllm serve $MODEL --config config.yaml --port 8888 --trust-remote-code > server.log 2>&1 &
echo $! > server.pid
