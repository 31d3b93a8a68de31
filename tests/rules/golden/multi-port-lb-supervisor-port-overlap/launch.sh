#!/bin/sh
# servelint: vllm=0.33.0
# Ranks on 9254-9257 and the supervisor on its default 9256.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 8 --data-parallel-size-local 4 --data-parallel-multi-port-external-lb --port 9254
