#!/usr/bin/env bash
# servelint: vllm=0.33.0
# A custom proposer with no import path to load it from.
vllm serve ../../../conformance/models/llama \
  --speculative-config '{"method": "custom_class", "num_speculative_tokens": 3}'
