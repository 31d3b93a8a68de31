#!/bin/sh
# servelint: vllm=0.33.0
# Fault tolerance with vLLM's internal load balancer.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 2 --enable-fault-tolerance
