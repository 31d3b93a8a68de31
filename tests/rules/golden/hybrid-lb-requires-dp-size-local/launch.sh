#!/bin/sh
# servelint: vllm=0.33.0
# Hybrid load balancing without the ranks of this node.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 4 --data-parallel-hybrid-lb
