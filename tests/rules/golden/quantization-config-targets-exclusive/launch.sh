#!/bin/sh
# servelint: vllm=0.33.0
# Per-layer targets plus a spec for every linear layer (refused while parsing: no oracle case).
vllm serve ../../../conformance/models/llama \
  --quantization-config '{"targets": {"re:.*proj": "fp8_per_tensor"}, "linear": "fp8_per_tensor"}'
