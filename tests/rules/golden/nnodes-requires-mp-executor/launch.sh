#!/bin/sh
# servelint: vllm=0.33.0
# Ray with vLLM's own multi-node flags.
vllm serve ../../../conformance/models/llama \
  -tp 2 --nnodes 2 --distributed-executor-backend ray
