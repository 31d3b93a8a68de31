#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/qwen3 \
  --speculative-config '{"method": "suffix", "suffix_decoding_max_tree_depth": 0, "suffix_decoding_min_token_prob": 10}'
