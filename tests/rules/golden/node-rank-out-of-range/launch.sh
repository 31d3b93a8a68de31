#!/bin/sh
# servelint: vllm=0.33.0
# Node ranks count from 0.
vllm serve ../../../conformance/models/llama \
  -tp 2 --nnodes 2 --node-rank 2
