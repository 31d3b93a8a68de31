#!/usr/bin/env bash
set -e
# Long-context serving for the RAG prototype.
vllm serve Qwen/Qwen3-8B \
    --max-model-length 32768 \
    --gpu-memory-utilisation 0.92 \
    --enable-prefix-caching \
    --port 8000
