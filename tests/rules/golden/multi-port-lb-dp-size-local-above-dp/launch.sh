#!/bin/sh
# servelint: vllm=0.33.0
# More local ranks than ranks.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 2 --data-parallel-size-local 4 --data-parallel-multi-port-external-lb
