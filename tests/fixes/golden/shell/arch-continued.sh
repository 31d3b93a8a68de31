#!/bin/sh
# servelint: vllm=0.28.0
vllm serve mistralai/Mamba-Codestral-7B-v0.1 \
  --port 8000 \
  --use-replayssm \
  --max-model-len 4096
