#!/bin/sh
# servelint: vllm=0.33.0
# Meant to bound host memory while loading.
vllm serve ../../../conformance/models/llama \
  -tp 4 --max-parallel-loading-workers 2
