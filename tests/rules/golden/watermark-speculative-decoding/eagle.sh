#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --watermark-config '{"key": 1}' \
  --speculative-config '{"method": "eagle", "model": "../../../conformance/models/llama", "num_speculative_tokens": 3}'
vllm serve ../../../conformance/models/qwen3 --watermark-config '{"key": 1, "algorithm": "dual_key_gumbel"}' \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3, "draft_sample_method": "probabilistic"}'
