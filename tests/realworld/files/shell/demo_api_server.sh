#!/bin/bash
# Minimal generate endpoint for the latency probe (POST /generate).
python -m vllm.entrypoints.api_server \
    --model facebook/opt-125m \
    --port 8001 \
    --max-model-len 2048
