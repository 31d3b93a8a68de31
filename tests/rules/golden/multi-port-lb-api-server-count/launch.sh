#!/bin/sh
# servelint: vllm=0.33.0
# The supervisor starts the API servers itself.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-multi-port-external-lb --api-server-count 2
