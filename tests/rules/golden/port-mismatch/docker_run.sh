#!/bin/sh
# servelint: vllm=0.33.0
docker run --gpus 1 -p 8080:8080 vllm/vllm-openai:v0.33.0 --model Qwen/Qwen3-8B
