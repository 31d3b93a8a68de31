#!/bin/bash
# Reproduce the 0.28 regression report exactly.
pip install "vllm==0.28.0"

vllm serve Qwen/Qwen3-8B \
  --disable-log-requests \
  --max-model-len 8192 \
  --port 8000
