#!/bin/sh
# servelint: vllm=0.33.0
# Ranks count from 0.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 2 --data-parallel-rank 2
