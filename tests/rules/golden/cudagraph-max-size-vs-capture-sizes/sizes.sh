#!/bin/sh
# servelint: vllm=0.33.0
# The maximum is not the largest capture size.
vllm serve ../../../conformance/models/llama --cudagraph-capture-sizes 1 2 4 8 16 256 --max-cudagraph-capture-size 512
# 8192 is dropped (above the token budget), so the largest size left is 4.
vllm serve ../../../conformance/models/llama --max-num-batched-tokens 2048 \
  --cudagraph-capture-sizes 1 2 4 8192 --max-cudagraph-capture-size 8192
# Consistent: silent.
vllm serve ../../../conformance/models/llama --cudagraph-capture-sizes 1 2 4 8 --max-cudagraph-capture-size 8
# CUDA graphs off in eager mode: silent.
vllm serve ../../../conformance/models/llama --enforce-eager --cudagraph-capture-sizes 1 2 4 --max-cudagraph-capture-size 512
