#!/bin/bash
NUM_GPUS=$(nvidia-smi -L | wc -l)
CID=$(docker run -d --gpus all vllm/vllm-openai:v0.28.0 --model Qwen/Qwen3-8B)
vllm serve "$(cat model.txt)" --tensor-parallel-size $NUM_GPUS --port `get_port`
