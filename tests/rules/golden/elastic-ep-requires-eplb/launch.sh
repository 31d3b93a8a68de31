#!/bin/sh
# servelint: vllm=0.33.0
# Elastic EP without EPLB.
vllm serve ../../../conformance/models/mixtral \
  --enable-expert-parallel --data-parallel-size 4 --enable-elastic-ep
