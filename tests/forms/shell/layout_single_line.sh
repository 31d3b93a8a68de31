#!/bin/bash
CUDA_VISIBLE_DEVICES=0 \
vllm serve Qwen/Qwen3-8B --port 8000 --max-model-len 4096
