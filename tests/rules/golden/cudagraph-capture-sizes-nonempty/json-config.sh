#!/usr/bin/env bash
# servelint: vllm=0.28.0
vllm serve ../../../conformance/models/llama --compilation-config '{"cudagraph_capture_sizes": [], "max_cudagraph_capture_size": 64}'
