#!/bin/sh
# servelint: vllm=0.33.0
# targets as a list of patterns: the TypeError escapes pydantic (oracle: "invalid _optional_type value").
vllm serve ../../../conformance/models/llama \
  --quantization-config '{"targets": ["re:.*proj"]}'
