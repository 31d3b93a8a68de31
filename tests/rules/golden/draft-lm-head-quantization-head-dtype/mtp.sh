#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/rules/models/deepseek-v3-head-fp32 \
  --speculative-config '{"method": "mtp", "num_speculative_tokens": 1, "draft_lm_head_quantization": "fp8"}'
