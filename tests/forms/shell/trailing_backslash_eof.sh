#!/bin/bash
python -m vllm.entrypoints.openai.api_server \
    --model Qwen/Qwen3-8B \
    --disable-log-requests \
