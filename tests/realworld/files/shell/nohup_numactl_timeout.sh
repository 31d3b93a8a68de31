#!/bin/bash
# CPU-pinned server for the NUMA experiment, plus a time-boxed smoke run.
LOG_DIR=/var/log/vllm
mkdir -p "$LOG_DIR"

nohup numactl --cpunodebind=0 --membind=0 \
  vllm serve Qwen/Qwen3-8B \
    --max-model-len 8192 \
    --port 8000 > "$LOG_DIR/node0.log" 2>&1 &

timeout 900 vllm serve Qwen/Qwen3-0.6B --port 8001 --max-model-len 4096 --enforce-eager
