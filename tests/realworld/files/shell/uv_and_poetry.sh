#!/bin/bash
# Two ways the team starts the server, depending on the checkout.
set -euo pipefail

if [ -f uv.lock ]; then
  uv run vllm serve google/gemma-3-1b-it \
    --max-model-len 8192 \
    --port 8000
else
  poetry run python -m vllm.entrypoints.openai.api_server \
    --model google/gemma-3-1b-it \
    --max-model-len 8192 \
    --port 8000
fi
