#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama \
  --speculative-config '{"model": "../../../conformance/top25/models/qwen3-fp16", "num_speculative_tokens": 4}'
