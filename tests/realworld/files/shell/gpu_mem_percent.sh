#!/bin/bash
# Gemma 2 on the 24 GB card.
vllm serve google/gemma-2-9b \
  --gpu-memory-utilization 95 \
  --max-model-len 4k \
  --port 8000
