#!/bin/sh
# servelint: vllm=0.33.0
# One externally balanced rank, with fault tolerance and two API servers.
vllm serve ../../../conformance/models/mixtral \
  --data-parallel-size 2 --data-parallel-rank 0 --enable-fault-tolerance --api-server-count 2
