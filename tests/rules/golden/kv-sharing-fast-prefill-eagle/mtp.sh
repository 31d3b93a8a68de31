#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/deepseek-v3 --kv-sharing-fast-prefill \
  --speculative-config '{"method": "mtp", "num_speculative_tokens": 1}'
