#!/bin/bash
# Abbreviated flags copied from a cluster's model manifests.
vllm serve Qwen/Qwen2.5-1.5B-Instruct \
  --max-num-batched-token 8192 \
  --gpu-memory-util 0.8 \
  --max-model-len 8192
