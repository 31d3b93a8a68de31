#!/bin/sh
# servelint: vllm=0.33.0
# The NUMA layout without turning binding on.
vllm serve ../../../conformance/models/llama \
  -tp 2 --numa-bind-nodes 0 1
