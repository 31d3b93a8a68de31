#!/bin/sh
# servelint: vllm=0.33.0
# Six ranks do not split into nodes of four.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 6 --data-parallel-size-local 4 --data-parallel-multi-port-external-lb
