#!/bin/bash
# the image already runs `vllm serve`
docker run --gpus all -p 8000:8000 vllm/vllm-openai:latest serve Qwen/Qwen3-8B --port 8000
podman run --device nvidia.com/gpu=all docker.io/vllm/vllm-openai:v0.28.0 vllm serve Qwen/Qwen3-8B
