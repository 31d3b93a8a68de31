#!/bin/bash
# Step 3 of the tutorial: start the OpenAI-compatible server.
# (Leave this terminal open and continue with step 4 in a new one.)

CUDA_VISIBLE_DEVICES=0 python -m vllm.entrypoints.openai.api_server \
  --model mistralai/Mistral-7B-Instruct-v0.1 \
  --max-model-len 16384 \
  --gpu-memory-utilization 0.85 \
  --port 8000
