#!/bin/sh
# servelint: vllm=0.33.0
# One socket for several ranks.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-multi-port-external-lb --uds /run/vllm.sock
