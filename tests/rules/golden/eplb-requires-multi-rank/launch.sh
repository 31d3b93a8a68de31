#!/bin/sh
# servelint: vllm=0.33.0
# EPLB on one GPU: no other rank to move experts to.
vllm serve ../../../conformance/models/mixtral \
  --enable-expert-parallel --enable-eplb
