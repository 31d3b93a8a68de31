#!/usr/bin/env bash
# servelint: vllm=0.33.0
# A DeepSeek-V3 checkpoint with two MTP layers.
vllm serve ../../../conformance/rules/models/deepseek-v3-mtp2 \
  --speculative-config '{"method": "mtp", "num_speculative_tokens": 3}'
