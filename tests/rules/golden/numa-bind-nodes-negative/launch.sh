#!/bin/sh
# servelint: vllm=0.33.0
# One NUMA node per GPU, one of them mistyped.
vllm serve ../../../conformance/models/llama \
  -tp 2 --numa-bind --numa-bind-nodes 0 -1
