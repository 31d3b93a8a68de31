#!/bin/sh
# servelint: vllm=0.33.0
# No local size for the supervisor.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 4 --data-parallel-multi-port-external-lb
