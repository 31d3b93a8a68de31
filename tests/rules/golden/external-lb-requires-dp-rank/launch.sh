#!/bin/sh
# servelint: vllm=0.33.0
# External load balancing, but which rank is this?
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 2 --data-parallel-external-lb
