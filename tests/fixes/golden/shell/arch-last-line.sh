#!/bin/bash
# servelint: vllm=0.28.0
vllm serve mistralai/Mamba-Codestral-7B-v0.1 \
  --max-model-len 4096 \
  --use-replayssm
echo "served"
