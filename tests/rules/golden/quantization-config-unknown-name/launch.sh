#!/bin/sh
# servelint: vllm=0.33.0
# A weight name that is neither a shorthand nor a quantization key (refused while parsing: no oracle case).
vllm serve ../../../conformance/models/llama \
  --quantization-config '{"linear": {"weight": "fp8_dynamic", "activation": 8}}'
