#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/qwen3 --speculative-config \
  '{"method": "ngram", "num_speculative_tokens": 4, "rejection_sample_method": "fly", "fly_window_size": 4}'
