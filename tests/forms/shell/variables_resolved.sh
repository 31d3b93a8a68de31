#!/bin/bash
MODEL=Qwen/Qwen3-8B
PORT="8000"
export VLLM_LOGGING_LEVEL=DEBUG
HF_HUB_OFFLINE=1; export HF_HUB_OFFLINE
NOT_EXPORTED=1
tp=2
vllm serve $MODEL --port "${PORT}" --tensor-parallel-size=$tp --served-model-name "$MODEL-chat"
