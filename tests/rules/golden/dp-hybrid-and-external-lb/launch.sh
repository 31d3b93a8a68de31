#!/bin/sh
# servelint: vllm=0.33.0
# Two load-balancing modes at once.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 2 --data-parallel-rank 0 --data-parallel-hybrid-lb --data-parallel-external-lb
