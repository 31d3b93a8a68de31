#!/bin/sh
# servelint: vllm=0.33.0
# The supervisor numbers its children.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-multi-port-external-lb --data-parallel-rank 0
