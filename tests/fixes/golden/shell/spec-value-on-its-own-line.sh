#!/bin/sh
# servelint: vllm=0.28.0
vllm serve nvidia/Nemotron-H-8B-Base-8K \
  --use-replayssm \
  --speculative-config \
    '{"method":"ngram","num_speculative_tokens":3}' \
  --port 8000
