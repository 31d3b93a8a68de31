#!/usr/bin/env bash
# servelint: vllm=0.33.0
# Pipeline parallelism: the adaptive budget exists on the last rank only.
vllm serve ../../../conformance/models/llama -pp 2 \
  --speculative-config '{"method": "dspark", "num_speculative_tokens": 3, "enable_adaptive_verification": true}'
