#!/bin/bash
PORT=8000
bash -c "vllm serve Qwen/Qwen3-8B --port $PORT --served-model-name \"qwen 8b\""
sh -c 'exec vllm serve Qwen/Qwen3-8B --port $PORT'
bash -lc "source venv/bin/activate && python -m vllm.entrypoints.openai.api_server \
  --model facebook/opt-125m"
