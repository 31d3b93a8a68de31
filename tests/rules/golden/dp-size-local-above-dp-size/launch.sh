#!/bin/sh
# servelint: vllm=0.33.0
# Four ranks on this node out of two in all.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 2 --data-parallel-size-local 4
