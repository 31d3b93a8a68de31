#!/bin/sh
# servelint: vllm=0.33.0
# Two maximum capture sizes.
vllm serve ../../../conformance/models/llama \
  --max-cudagraph-capture-size 256 -cc.max_cudagraph_capture_size 512
