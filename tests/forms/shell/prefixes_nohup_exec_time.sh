#!/bin/bash
CUDA_VISIBLE_DEVICES=0,1 VLLM_USE_V1=1 nohup vllm serve Qwen/Qwen3-0.6B --port 8000 > vllm.log 2>&1 &
time vllm serve Qwen/Qwen3-0.6B --port 8001
CUDA_VISIBLE_DEVICES=2 \
  python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-0.6B
exec vllm serve Qwen/Qwen3-0.6B --port 8002
timeout 3600 stdbuf -oL numactl --cpunodebind=0 vllm serve Qwen/Qwen3-0.6B --port 8003
