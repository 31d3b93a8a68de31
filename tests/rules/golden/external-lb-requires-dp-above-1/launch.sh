#!/bin/sh
# servelint: vllm=0.33.0
# A rank for an external load balancer, with no data parallelism.
vllm serve ../../../conformance/models/llama \
  --data-parallel-rank 0
