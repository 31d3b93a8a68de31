#!/bin/bash
# Agent backend: tool calls parsed server-side.
vllm serve Qwen/Qwen3-8B \
  --enable-auto-tool-choice \
  --max-model-len 32768 \
  --port 8000

# the one that works (parser named)
vllm serve Qwen/Qwen3-8B \
  --enable-auto-tool-choice \
  --tool-call-parser hermes \
  --max-model-len 32768 \
  --port 8001
