#!/bin/sh
# servelint: vllm=0.33.0
# One external rank per process, not two.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 4 --data-parallel-rank 0 --data-parallel-size-local 2
