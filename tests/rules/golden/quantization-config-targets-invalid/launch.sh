#!/bin/sh
# servelint: vllm=0.33.0
# fp8 is a --quantization method, not an online shorthand (refused while parsing: no oracle case).
vllm serve ../../../conformance/models/llama \
  --quantization-config '{"targets": {"re:.*proj": "fp8"}}'
