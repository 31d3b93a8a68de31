#!/bin/sh
# servelint: vllm=0.33.0
vllm serve Qwen/Qwen3-8B \
  --gpu-memory-utilization 90 \
  --dtype bf16 \
  --max-model-len 1.5K \
  --enforce-eager=true \
  --speculative-config '{"method": "ngram", "num_speculative_tokenz": 3}'
