#!/bin/sh
# servelint: vllm=0.33.0
# The third node of a two-node layout.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-multi-port-external-lb --node-rank 2
