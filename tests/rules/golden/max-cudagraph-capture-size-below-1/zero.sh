#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --max-cudagraph-capture-size 0
# Eager mode: vLLM sizes no CUDA graphs, silent.
vllm serve ../../../conformance/models/llama --max-cudagraph-capture-size 0 --enforce-eager
vllm serve ../../../conformance/models/llama --max-cudagraph-capture-size 1
