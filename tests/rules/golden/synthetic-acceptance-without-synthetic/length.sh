#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "synthetic_acceptance_length": 2.5}'
