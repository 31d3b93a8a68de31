#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --data-parallel-size 2 --data-parallel-rank 0
