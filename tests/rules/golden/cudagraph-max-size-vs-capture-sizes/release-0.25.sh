#!/bin/sh
# servelint: vllm=0.25.0
vllm serve ../../../conformance/models/qwen3 --cudagraph-capture-sizes 1 2 4 8 --max-cudagraph-capture-size 16
# Tensor parallelism may re-round the sizes (sequence parallelism): silent.
vllm serve ../../../conformance/models/qwen3 -tp 2 --cudagraph-capture-sizes 1 2 4 8 --max-cudagraph-capture-size 16
