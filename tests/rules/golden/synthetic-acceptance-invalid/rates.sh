#!/usr/bin/env bash
# servelint: vllm=0.33.0
# A benchmark launch with one rate per token but one: vLLM wants one per token.
vllm serve ../../../conformance/models/llama --speculative-config \
  '{"method": "ngram", "num_speculative_tokens": 3, "rejection_sample_method": "synthetic", "synthetic_acceptance_rates": [0.5, 0.8]}'
