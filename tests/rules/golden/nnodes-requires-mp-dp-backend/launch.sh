#!/bin/sh
# servelint: vllm=0.33.0
# vLLM's node flags with Ray's data-parallel backend.
vllm serve ../../../conformance/models/llama \
  -tp 2 --nnodes 2 --data-parallel-backend ray
