#!/usr/bin/env bash
# Decode-heavy chat workload: capture decode graphs only, speculate with n-grams.
vllm serve Qwen/Qwen3-8B \
  --max-model-len 16384 \
  --compilation-config '{"cudagraph_mode": "FULL_DECODE_ONLY"}' \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4}' \
  --port 8000
