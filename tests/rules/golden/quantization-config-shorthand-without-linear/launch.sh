#!/bin/sh
# servelint: vllm=0.33.0
# nvfp4_per_token only quantizes MoE layers (refused while parsing: no oracle case).
vllm serve ../../../conformance/models/mixtral \
  --quantization-config '{"linear": "nvfp4_per_token"}'
