#!/bin/sh
# servelint: vllm=0.33.0
# Elastic EP with pipeline stages.
vllm serve ../../../conformance/models/mixtral \
  --enable-expert-parallel --enable-eplb --enable-elastic-ep -pp 2
