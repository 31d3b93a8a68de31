#!/bin/sh
# servelint: vllm=0.33.0
# Full CUDA graphs asked for an embedding model: vLLM runs piecewise ones.
vllm serve ../../../conformance/rules/models/bert-embed \
    --compilation-config '{"cudagraph_mode": "FULL_AND_PIECEWISE", "max_cudagraph_capture_size": 256}'
