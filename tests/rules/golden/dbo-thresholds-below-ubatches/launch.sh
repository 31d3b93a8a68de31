#!/bin/sh
# servelint: vllm=0.33.0
# A decode threshold below the two microbatches of DBO.
vllm serve ../../../conformance/models/mixtral \
  --enable-expert-parallel --data-parallel-size 2 --all2all-backend deepep_low_latency --enable-dbo --dbo-decode-token-threshold 1
