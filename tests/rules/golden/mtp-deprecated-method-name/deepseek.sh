#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/deepseek-v3 \
  --speculative-config '{"method": "deepseek_mtp", "num_speculative_tokens": 1}'
