#!/bin/bash
# Embedding endpoints for the retrieval service.

# old way (pre-runner flags)
vllm serve Qwen/Qwen3-Embedding-0.6B --task embed --port 8300 &

# new way
vllm serve Qwen/Qwen3-Embedding-0.6B --runner pooling --convert embed --port 8301 &
wait
