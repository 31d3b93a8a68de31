#!/bin/sh
# servelint: vllm=0.33.0
# The second node of a hybrid launch, run headless.
vllm serve ../../../conformance/models/mixtral \
  --headless --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-start-rank 2 --data-parallel-hybrid-lb
