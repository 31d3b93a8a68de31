#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/deepseek-v3 --max-model-len 4096 \
  --speculative-config '{"method": "mtp", "num_speculative_tokens": 1, "max_model_len": 8192}'
