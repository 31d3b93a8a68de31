#!/bin/bash
docker run -d --gpus all --entrypoint python3 vllm/vllm-openai:v0.28.0 \
  -m vllm.entrypoints.openai.api_server --model facebook/opt-125m
docker run --rm -it --gpus all -w /app --network host nvcr.io/nvidia/pytorch:24.05-py3 \
  vllm serve Qwen/Qwen3-8B --port 8000
docker run --rm --entrypoint bash vllm/vllm-openai:v0.28.0 -c "vllm serve Qwen/Qwen3-8B --port 9000"
docker run --rm ubuntu:22.04 echo "vllm serve not-a-launch"
