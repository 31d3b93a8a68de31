#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama -tp 2 \
  --speculative-config '{"model": "../../../conformance/models/llama", "num_speculative_tokens": 3, "tensor_parallel_size": 1}'
