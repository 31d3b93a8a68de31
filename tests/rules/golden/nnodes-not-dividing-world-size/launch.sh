#!/bin/sh
# servelint: vllm=0.33.0
# Two nodes for one GPU's worth of ranks.
vllm serve ../../../conformance/models/llama \
  --nnodes 2
