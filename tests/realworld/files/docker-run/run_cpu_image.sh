#!/bin/bash
# CPU-only laptop run, small model.
docker run --rm -p 8000:8000 \
  -e VLLM_CPU_KVCACHE_SPACE=8 \
  vllm/vllm-openai-cpu:v0.29.0 \
  facebook/opt-125m \
  --dtype bfloat16 \
  --max-model-len 2048 \
  --max-num-seqs 8
