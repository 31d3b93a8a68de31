#!/usr/bin/env bash
# Serve a hybrid Mamba model and a Llama model on one node.
# vLLM pinned for this cluster:
#   pip install vllm==0.28.0
set -euo pipefail

MODEL=${MODEL:-mistralai/Mamba-Codestral-7B-v0.1}
PORT=8000

# ReplaySSM only works for Nemotron-H models: this launch fails at startup.
CUDA_VISIBLE_DEVICES=0 vllm serve "$MODEL" \
  --port "$PORT" \
  --use-replayssm \
  --max-model-len 32k \
  --gpu-memory-utilization 0.9 &

# A typo that vLLM rejects with "unrecognized arguments".
CUDA_VISIBLE_DEVICES=1 vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --port 8001 \
  --max-modl-len 8192 \
  --config=llama.yaml &

wait
