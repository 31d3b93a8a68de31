#!/bin/sh
# servelint: vllm=0.33.0
# Three nodes, two ranks: which rank is this node?
vllm serve ../../../conformance/models/mixtral \
  -pp 3 --data-parallel-size 2 --nnodes 3 --data-parallel-external-lb
