#!/bin/sh
# servelint: vllm=0.33.0
# A start rank and a local size: vLLM takes it for hybrid load balancing.
vllm serve ../../../conformance/models/mixtral \
  --enable-expert-parallel --enable-eplb --enable-elastic-ep --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-start-rank 2
