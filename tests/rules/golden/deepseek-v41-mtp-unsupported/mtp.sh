#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/deepseek-v41 \
  --speculative-config '{"method": "mtp", "num_speculative_tokens": 1}'
