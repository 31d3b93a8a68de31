#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama -cc '{"compile_sizes": [1, 2, "cudagraph_sizes"]}'
