#!/bin/sh
# servelint: vllm=0.33.0
docker run --gpus 2 --ipc=host -p 8000:8000 vllm/vllm-openai:v0.33.0 \
  --model Qwen/Qwen3-32B --tensor-parallel-size 4
