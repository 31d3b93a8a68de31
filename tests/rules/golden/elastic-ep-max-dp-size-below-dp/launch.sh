#!/bin/sh
# servelint: vllm=0.33.0
# The ceiling of elastic EP below where it starts.
vllm serve ../../../conformance/models/mixtral \
  --enable-expert-parallel --enable-eplb --enable-elastic-ep --data-parallel-size 4 --elastic-ep-max-dp-size 2
