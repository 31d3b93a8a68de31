#!/bin/bash
# Local smoke test with the upstream image.
docker run --runtime nvidia --gpus all \
    -v ~/.cache/huggingface:/root/.cache/huggingface \
    --env "HF_TOKEN=$HF_TOKEN" \
    -p 8000:8000 \
    --ipc=host \
    vllm/vllm-openai:latest \
    Qwen/Qwen3-8B \
    --max-model-len 16384 \
    --gpu-memory-utilization 0.9
