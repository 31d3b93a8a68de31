#!/bin/sh
# servelint: vllm=0.25.0
# A key name 0.25.0 does not have yet (nvfp4_per_token is a shorthand there, MoE only).
vllm serve ../../../conformance/models/llama \
  --quantization-config.moe.weight nvfp4_per_token
