#!/usr/bin/env bash
# servelint: vllm=0.33.0
# An older tutorial's way of starting the OpenAI server.
python -m vllm.entrypoints.openai.api_server \
  --model Qwen/Qwen3-8B \
  --port 8000
