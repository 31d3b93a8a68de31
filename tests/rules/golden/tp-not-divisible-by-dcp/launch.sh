#!/bin/sh
# servelint: vllm=0.33.0
# DCP wider than the tensor-parallel group it reuses.
vllm serve ../../../conformance/models/deepseek-v3 \
  -tp 2 --decode-context-parallel-size 4
