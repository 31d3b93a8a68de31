#!/bin/sh
# servelint: vllm=0.33.0
vllm serve ../../../conformance/top25/models/qwen2 --tensor-parallel-size 8
