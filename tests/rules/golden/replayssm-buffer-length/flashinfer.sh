#!/bin/sh
# servelint: vllm=0.33.0
vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm \
  --no-enable-prefix-caching \
  --mamba-backend flashinfer \
  --replayssm-buffer-len 32
