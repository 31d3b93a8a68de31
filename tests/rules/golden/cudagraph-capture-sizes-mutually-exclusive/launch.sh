#!/bin/sh
# servelint: vllm=0.33.0
# Two lists of capture sizes.
vllm serve ../../../conformance/models/llama \
  --cudagraph-capture-sizes 1 2 4 -cc '{"cudagraph_capture_sizes": [1, 2, 4, 8]}'
