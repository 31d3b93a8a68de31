#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/qwen3 \
  --speculative-config '{"method": "dflash", "model": "../../../conformance/rules/models/qwen3-xpress", "num_speculative_tokens": 3, "xpress_topc": 200000}'
