#!/bin/sh
# servelint: vllm=0.33.0
# No data-parallel size.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size-local 2 --data-parallel-multi-port-external-lb
