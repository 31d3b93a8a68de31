#!/usr/bin/env bash
# The serving box has two virtualenvs; pick one with VENV, default to the
# stable one.  PYTHON can point at any interpreter that has vllm installed.
VENV=${VENV:-/opt/venvs/vllm-stable}
PYTHON=${PYTHON:-python3}

if [ "${1:-}" = "stable" ]; then
  "$VENV/bin/python" -m vllm.entrypoints.openai.api_server \
    --model meta-llama/Meta-Llama-3-70B-Instruct \
    --tensor-parallel-size 4 \
    --max-model-len 8192 \
    --port 8000
else
  $PYTHON -m vllm.entrypoints.openai.api_server \
    --model meta-llama/Llama-3.2-1B-Instruct \
    --gpu-memory-utilization 90 \
    --port 8001
fi
