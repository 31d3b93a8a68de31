#!/bin/sh
# servelint: vllm=0.33.0
# One rank per node: vLLM switches to external load balancing.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-start-rank 1 --data-parallel-hybrid-lb
