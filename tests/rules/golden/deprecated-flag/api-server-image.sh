#!/bin/sh
# vllm/vllm-openai:v0.10.1 runs python3 -m vllm.entrypoints.openai.api_server: --model is the model
# there, not a deprecated flag; --disable-log-requests is deprecated in 0.10.1.
docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.10.1 --model facebook/opt-125m --swap-space 4 --disable-log-requests
