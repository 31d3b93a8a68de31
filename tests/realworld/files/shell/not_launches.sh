#!/bin/bash
# Helper functions sourced by the ops scripts.  Nothing here starts a server.

stop_servers() {
  pkill -f "vllm serve" || true
}

usage() {
  echo "start with: vllm serve <model> --port <port>"
}

# vllm serve meta-llama/Llama-3.2-1B-Instruct --max-model-len 4096   (old default)

bench_latency() {
  vllm bench latency --model "$1" --input-len 512 --output-len 64
}

trl_server() {
  trl vllm-serve --model "$1" --tensor-parallel-size 1
}
