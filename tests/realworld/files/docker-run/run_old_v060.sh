#!/bin/bash
# Pinned to the image we validated in 2024; do not bump without re-running evals.
docker run -d --name llm-prod --gpus '"device=0,1"' \
  -p 8000:8000 --shm-size 16g \
  vllm/vllm-openai:v0.6.0 \
  --model meta-llama/Meta-Llama-3-70B-Instruct \
  --tensor-parallel-size 2 \
  --num-scheduler-steps 10 \
  --max-model-len 8192 \
  --disable-log-requests
