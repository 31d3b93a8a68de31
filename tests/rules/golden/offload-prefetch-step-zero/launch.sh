#!/bin/sh
# servelint: vllm=0.33.0
# Prefetch offloading that prefetches nothing.
vllm serve ../../../conformance/models/llama \
  --offload-group-size 2 --offload-prefetch-step 0
