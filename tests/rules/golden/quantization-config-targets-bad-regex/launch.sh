#!/bin/sh
# servelint: vllm=0.33.0
# An unbalanced parenthesis in a re: pattern.
vllm serve ../../../conformance/models/llama \
  --quantization-config '{"targets": {"re:.*(proj": "fp8_per_block"}}'
# The regex module's own syntax (\p{L}) compiles, and a name without re: is not a pattern.
vllm serve ../../../conformance/models/llama \
  --quantization-config '{"targets": {"re:\\p{L}+_proj": "fp8_per_block", "lm_(head": "fp8_per_tensor"}}'
