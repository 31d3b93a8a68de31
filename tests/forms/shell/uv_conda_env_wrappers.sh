#!/bin/bash
uv run --with vllm --python 3.12 vllm serve Qwen/Qwen3-0.6B --port 8000
uv run python -m vllm.entrypoints.openai.api_server --model BAAI/bge-m3 --task embed &
conda run -n vllm --no-capture-output vllm serve Qwen/Qwen3-0.6B --port 8001
env -u HTTP_PROXY HF_HUB_OFFLINE=1 vllm serve Qwen/Qwen3-0.6B --port 8002
sudo -E env CUDA_VISIBLE_DEVICES=3 vllm serve Qwen/Qwen3-0.6B --port 8003
