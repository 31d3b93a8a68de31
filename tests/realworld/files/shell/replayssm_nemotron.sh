#!/bin/bash
# ReplaySSM experiments on Nemotron-H.
MODEL=nvidia/Nemotron-H-8B-Base-8K

# 1) with n-gram speculation (needs the FlashInfer backend and no prefix caching)
vllm serve $MODEL \
  --use-replayssm \
  --mamba-backend flashinfer \
  --no-enable-prefix-caching \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3}' \
  --port 8000 &

# 2) speculation, defaults otherwise
vllm serve $MODEL \
  --use-replayssm \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3}' \
  --port 8001 &
wait
