#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --enforce-eager -cc '{"cudagraph_mode": "FULL_AND_PIECEWISE"}'
vllm serve ../../../conformance/models/llama --enforce-eager --cudagraph-capture-sizes 1 2 4 8
# What eager mode sets anyway: silent.
vllm serve ../../../conformance/models/llama --enforce-eager -cc '{"cudagraph_mode": "NONE"}'
vllm serve ../../../conformance/models/llama --enforce-eager
