#!/bin/bash
# The interpreter or the vllm script is held in a variable the caller sets.
"$VENV/bin/python" -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-0.6B --port 8200
$PYTHON -u -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-0.6B --port 8201
${PYTHON:-python3} -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-0.6B --port 8202
"$VLLM_BIN" serve Qwen/Qwen3-0.6B --port 8203
"$HOME/.venv/bin/vllm" serve Qwen/Qwen3-0.6B --port 8204
# Not launches: the program and what it runs are unknown.
$PYTHON train.py --model Qwen/Qwen3-0.6B
$PYTHON -c "import vllm"
$RUNNER serve Qwen/Qwen3-0.6B
$TOOL run --port 8000 Qwen/Qwen3-0.6B
