#!/bin/sh
# servelint: vllm=0.33.0
vllm serve Qwen/Qwen3-8B --max-model-len 4096 --port 8000 --max_model_len 8192
